import NotificationEngine

/// `nt_configure`'s request: the settings `serve` takes as `--app-name`
/// and `--default-locale`, checked as they are there (the rules are the
/// CLI's `CommandOption.appName` and `.defaultLocale`, restated here: the
/// module has no CLI; `make check-wasm` gives both the same values and
/// fails where they disagree). A member that is null is absent, as
/// everywhere in the API.
struct ModuleSettings {
    var appName: String?
    var catalogs: CatalogSet?

    static func decode(_ request: [UInt8]) throws(Problem) -> ModuleSettings {
        let tape: JSONTape
        do throws(JSONParseError) {
            tape = try JSONParser.tape(request)
        } catch {
            throw Problem(error)
        }
        guard tape.kind(JSONTape.root) == .object else {
            throw Problem(.invalidType, "the settings must be a JSON object", at: "")
        }
        var settings = ModuleSettings()
        for (name, value) in tape.members(JSONTape.root) {
            let member = tape.string(name)
            guard member == "appName" || member == "defaultLocale" else {
                throw Problem(
                    .unknownMember, "the settings have no member \(member); their members are appName, defaultLocale",
                    pointer: pointer(to: member))
            }
            if tape.kind(value) == .null { continue }
            guard tape.kind(value) == .string else {
                throw Problem(.invalidType, "\(member) must be a string", at: member)
            }
            let text = tape.string(value)
            switch member {
            case "appName":
                guard !text.isEmpty, text.count <= 100 else {
                    throw Problem(.outOfRange, "appName must be 1…100 characters", at: member)
                }
                guard !text.unicodeScalars.contains(where: CodePoints.isControl) else {
                    throw Problem(.invalidValue, "appName must not contain control characters", at: member)
                }
                settings.appName = text
            case "defaultLocale":
                do throws(LocalizationError) {
                    settings.catalogs = try CatalogSet.builtIn.withDefaultLocale(text)
                } catch {
                    throw Problem(.invalidLocale, "defaultLocale: \(error.description)", at: member)
                }
            default:
                continue  // refused above
            }
        }
        return settings
    }

    /// RFC 6901's pointer to a member of the root: "~" and "/" escaped.
    private static func pointer(to member: String) -> String {
        var pointer = "/"
        for scalar in member.unicodeScalars {
            switch scalar {
            case "~": pointer.append("~0")
            case "/": pointer.append("~1")
            default: pointer.unicodeScalars.append(scalar)
            }
        }
        return pointer
    }

    static func json(appName: String, defaultLocale: String) -> [UInt8] {
        JSONWriter.bytes(capacity: 64 + appName.utf8.count) { json in
            json.raw(#"{"appName":"#)
            json.string(appName)
            json.raw(#","defaultLocale":"#)
            json.string(defaultLocale)
            json.raw("}")
        }
    }
}
