/// The payload writers of push.md P10 to P12 and P23: what a payload holds
/// besides its strings, written the same way to measure and to answer.
extension PushAnswer {
    /// What the payloads and their headers write besides `JSONStrings`: no
    /// reference, so a closure that captures it copies a few words.
    struct PayloadFields {
        let priorityClass: PriorityClass
        let expirationSeconds: Int64
        let ttlSeconds: Int64
        let badge: Int?
        let kind: ComposeResponse.Kind
        let direction: TextDirection
        /// compose.md S3: false makes the APNs alert passive and tells the app so.
        let alert: Bool
        /// P12 or P23.
        let webPushFormat: PushOptions.WebPushFormat
        /// P23: `mutable: true` in a declarative payload.
        let mutable: Bool

        /// The bytes `transport`'s payload takes with `strings`.
        func byteCount(_ transport: Transport, _ strings: JSONStrings) -> Int {
            JSONWriter.write(into: UnsafeMutableBufferPointer(start: nil, count: 0)) {
                write(transport, strings, to: &$0)
            }
        }

        /// Writes `transport`'s payload with `strings` (P10 to P12, members in the spec's order).
        func write(_ transport: Transport, _ strings: JSONStrings, to out: inout JSONWriter) {
            switch transport {
            case .apns: writeAPNs(strings, to: &out)
            case .fcm: writeFCM(strings, to: &out)
            case .webpush:
                switch webPushFormat {
                case .classic: writeWebPush(strings, to: &out)
                case .declarative: writeDeclarativeWebPush(strings, to: &out)
                }
            }
        }

        private func writeAPNs(_ strings: JSONStrings, to out: inout JSONWriter) {
            out.raw(#"{"aps":{"alert":{"#)
            writeTitles(strings, to: &out)
            out.raw(#"},"thread-id":"#)
            out.raw(strings.groupKey)
            out.raw(#","interruption-level":""#)
            out.raw(alert ? priorityClass.interruptionLevel : "passive")
            out.raw(#"","relevance-score":"#)
            out.raw(priorityClass.relevanceScore)
            if let badge {
                out.raw(#","badge":"#)
                out.integer(badge)
            }
            out.raw(#"},"stamp":"#)
            out.raw(strings.stamp)
            if let url = strings.url {
                out.raw(#","url":"#)
                out.raw(url)
            }
            out.raw(strings.identity)
            out.raw("}")
        }

        private func writeFCM(_ strings: JSONStrings, to out: inout JSONWriter) {
            out.raw(#"{"data":{"#)
            writeTexts(strings, to: &out)
            if let androidChannel = strings.androidChannel {
                out.raw(#","channel":"#)
                out.raw(androidChannel)
            }
            if let badge {
                out.raw(#","badge":""#)
                out.integer(badge)
                out.raw(#"""#)
            }
            // The answer's importance when it is not `normal`: the app picks its channel by it (P11).
            switch priorityClass {
            case .urgent: out.raw(#","importance":"high""#)
            case .low: out.raw(#","importance":"low""#)
            case .direct, .message, .other, .fallback: break
            }
            writeKindLang(strings, to: &out)
            // `dir`, then `alert` as a string (data values are strings).
            switch (direction, alert) {
            case (.ltr, true): out.raw(#","dir":"ltr","alert":"true","stamp":""#)
            case (.ltr, false): out.raw(#","dir":"ltr","alert":"false","stamp":""#)
            case (.rtl, true): out.raw(#","dir":"rtl","alert":"true","stamp":""#)
            case (.rtl, false): out.raw(#","dir":"rtl","alert":"false","stamp":""#)
            }
            out.raw(strings.stamp)
            out.raw(#"""#)
            out.raw(strings.identityData)
            out.raw(#"},"android":{"collapse_key":"#)
            out.raw(strings.groupKey)
            out.raw(#","priority":""#)
            out.raw(priorityClass.fcmPriority)
            out.raw(#"","ttl":""#)
            out.integer(ttlSeconds)
            out.raw(#"s"}}"#)
        }

        private func writeWebPush(_ strings: JSONStrings, to out: inout JSONWriter) {
            out.raw("{")
            writeTexts(strings, to: &out)
            if let badge {
                out.raw(#","appBadge":"#)
                out.integer(badge)
            }
            writeKindLang(strings, to: &out)
            switch (direction, alert) {
            case (.ltr, true): out.raw(#","dir":"ltr","alert":true,"stamp":"#)
            case (.ltr, false): out.raw(#","dir":"ltr","alert":false,"stamp":"#)
            case (.rtl, true): out.raw(#","dir":"rtl","alert":true,"stamp":"#)
            case (.rtl, false): out.raw(#","dir":"rtl","alert":false,"stamp":"#)
            }
            out.raw(strings.stamp)
            out.raw(strings.identity)
            out.raw("}")
        }

        /// P23: `{"web_push":8030,"notification":{…},"app_badge":n,"mutable":true}`.
        private func writeDeclarativeWebPush(_ strings: JSONStrings, to out: inout JSONWriter) {
            out.raw(#"{"web_push":8030,"notification":{"title":"#)
            out.raw(strings.title)
            out.raw(#","body":"#)
            if let subtitle = strings.subtitle {
                // The Notification API has no subtitle: it leads the body, a
                // line feed between (the two JSON strings joined in place).
                out.raw(UnsafeBufferPointer(rebasing: subtitle.dropLast()))
                out.raw(#"\n"#)
                out.raw(UnsafeBufferPointer(rebasing: strings.body.dropFirst()))
            } else {
                out.raw(strings.body)
            }
            out.raw(#","navigate":"#)
            // The notification's url when it has a navigable one left by the fit, else the app's.
            out.raw(strings.url ?? strings.navigate.unsafelyUnwrapped)
            out.raw(#","lang":"#)
            out.raw(strings.locale)
            out.raw(direction == .ltr ? #","dir":"ltr","tag":"# : #","dir":"rtl","tag":"#)
            out.raw(strings.groupKey)
            out.raw(alert ? #","silent":false"# : #","silent":true"#)
            writeBadgeAndMutable(to: &out)
            switch kind {
            case .single: out.raw(#","data":{"kind":"single","stamp":"#)
            case .bundle: out.raw(#","data":{"kind":"bundle","stamp":"#)
            case .summary: out.raw(#","data":{"kind":"summary","stamp":"#)
            case .fallback: out.raw(#","data":{"kind":"fallback","stamp":"#)
            }
            out.raw(strings.stamp)
            out.raw(strings.identity)
            out.raw("}}")
            // Again at the top level, where the Push API reads them; WebKit
            // reads them inside `notification` (ADR 0043).
            writeBadgeAndMutable(to: &out)
            out.raw("}")
        }

        private func writeBadgeAndMutable(to out: inout JSONWriter) {
            if let badge {
                out.raw(#","app_badge":"#)
                out.integer(badge)
            }
            if mutable { out.raw(#","mutable":true"#) }
        }

        /// `"title":…,"subtitle":…,"body":…`: APNs' alert, and the start of the others' texts.
        @inline(__always)
        private func writeTitles(_ strings: JSONStrings, to out: inout JSONWriter) {
            out.raw(#""title":"#)
            out.raw(strings.title)
            if let subtitle = strings.subtitle {
                out.raw(#","subtitle":"#)
                out.raw(subtitle)
            }
            out.raw(#","body":"#)
            out.raw(strings.body)
        }

        /// `"title":…,"subtitle":…,"body":…,"tag":…,"url":…` of FCM's data and Web Push.
        private func writeTexts(_ strings: JSONStrings, to out: inout JSONWriter) {
            writeTitles(strings, to: &out)
            out.raw(#","tag":"#)
            out.raw(strings.groupKey)
            if let url = strings.url {
                out.raw(#","url":"#)
                out.raw(url)
            }
        }

        private func writeKindLang(_ strings: JSONStrings, to out: inout JSONWriter) {
            switch kind {
            case .single: out.raw(#","kind":"single","lang":"#)
            case .bundle: out.raw(#","kind":"bundle","lang":"#)
            case .summary: out.raw(#","kind":"summary","lang":"#)
            case .fallback: out.raw(#","kind":"fallback","lang":"#)
            }
            out.raw(strings.locale)
        }
    }
}
