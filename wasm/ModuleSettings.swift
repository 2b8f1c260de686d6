import NotificationEngine

/// `nt_configure`'s request: the settings `serve` takes as `--app-name`
/// and `--default-locale`, checked as they are there.
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
            guard tape.kind(value) == .string else {
                throw Problem(.invalidType, "\(member) must be a string", at: member)
            }
            let text = tape.string(value)
            switch member {
            case "appName":
                guard !text.isEmpty, text.count <= 100 else {
                    throw Problem(.outOfRange, "appName must be 1…100 characters", at: member)
                }
                guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
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
                throw Problem(.invalidValue, "unknown member \(member)", at: member)
            }
        }
        return settings
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
