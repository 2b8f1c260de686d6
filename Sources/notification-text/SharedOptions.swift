import EventHTTP
import NotificationEngine

/// The settings more than one command has, defined once: the same flag,
/// environment variable, accepted values and checks in every command.
extension CommandOption {
    /// The app name in generic compose texts: `serve` and `compose`.
    static func appName(_ keyPath: SettingPath<Settings, String>) -> CommandOption {
        CommandOption(
            flag: "--app-name", aliases: ["--app"], environmentVariable: "NOTIFICATION_TEXT_APP_NAME",
            valueName: "NAME", meaning: "app name in generic compose texts when a request names none",
            value: OptionValue(
                accepted: "1…100 characters, no control characters", defaultValue: { $0[keyPath: keyPath] }
            ) { settings, raw in
                guard !raw.isEmpty, raw.count <= 100 else { return "must be 1…100 characters" }
                guard !raw.unicodeScalars.contains(where: CodePoints.isControl) else {
                    return "must not contain control characters"
                }
                settings[keyPath: keyPath] = raw
                return nil
            })
    }

    /// The default locale of compose texts: `serve` and `compose`. Stores the
    /// built-in catalogs with the catalog the tag chooses by the rules a
    /// request's `locale` follows (compose.md section 10); a tag no catalog
    /// fits is refused.
    static func defaultLocale(_ keyPath: SettingPath<Settings, CatalogSet>) -> CommandOption {
        CommandOption(
            flag: "--default-locale", environmentVariable: "NOTIFICATION_TEXT_DEFAULT_LOCALE", valueName: "TAG",
            meaning: "language of compose texts when a request has no locale, or one no catalog fits",
            value: OptionValue(
                accepted: "a BCP 47 tag a built-in catalog fits ("
                    + CatalogSet.builtIn.catalogs.map(\.tag).joined(separator: ", ") + ")",
                defaultValue: { $0[keyPath: keyPath].defaultCatalog.tag }
            ) { settings, raw in
                do throws(LocalizationError) {
                    settings[keyPath: keyPath] = try CatalogSet.builtIn.withDefaultLocale(raw)
                    return nil
                } catch .malformedTag {
                    return "must be a BCP 47 language tag such as pt-BR"
                } catch {
                    return
                        "fits no catalog (they are \(CatalogSet.builtIn.catalogs.map(\.tag).joined(separator: ", ")))"
                }
            })
    }

    /// The largest request body: `serve`'s, and the longest line of `--json-lines`.
    static func maxBodyBytes(_ keyPath: SettingPath<Settings, Int>, meaning: String)
        -> CommandOption
    {
        CommandOption(
            flag: "--max-body-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_BODY_BYTES", valueName: "BYTES",
            meaning: meaning, value: .integer(maxBodyBytesRange, keyPath))
    }

    static var maxBodyBytesRange: ClosedRange<Int> { 1_024...1_073_741_824 }
}

/// The default body limit, the HTTP adapter's.
let defaultMaxBodyBytes = HTTPServerConfiguration().maxBodyBytes
