/// A command's settings: a default for every field (`init()`), changed by
/// the command's options.
protocol CommandSettings: SendableMetatype {
    init()
}

/// Where an option stores its value.
typealias SettingPath<Settings, Value> = any WritableKeyPath<Settings, Value> & Sendable

/// One setting of a command, as one table entry: its flag, older spellings,
/// environment variable, what it means, and its value (accepted values,
/// default, how a raw value is checked and stored). `--help` prints the table;
/// `OptionParser` reads the command line and the environment with it.
struct CommandOption<Settings: CommandSettings>: Sendable {
    let flag: String
    /// Older spellings that still work; `--help` lists them.
    let aliases: [String]
    /// nil when only the flag sets it.
    let environmentVariable: String?
    /// The value's placeholder in `--help`; nil for a switch, which takes no value.
    let valueName: String?
    let meaning: String
    let value: OptionValue<Settings>

    init(
        flag: String, aliases: [String] = [], environmentVariable: String?, valueName: String?, meaning: String,
        value: OptionValue<Settings>
    ) {
        self.flag = flag
        self.aliases = aliases
        self.environmentVariable = environmentVariable
        self.valueName = valueName
        self.meaning = meaning
        self.value = value
    }

    /// A flag without a value that turns `keyPath` on.
    static func `switch`(_ flag: String, meaning: String, _ keyPath: SettingPath<Settings, Bool>)
        -> CommandOption
    {
        CommandOption(
            flag: flag, environmentVariable: nil, valueName: nil, meaning: meaning,
            value: OptionValue(accepted: "", defaultValue: { _ in "off" }) { settings, _ in
                settings[keyPath: keyPath] = true
                return nil
            })
    }

    /// Every spelling of the flag.
    var spellings: [String] { [flag] + aliases }

    /// The entry in `--help`: the flag and its aliases, what it means, then
    /// one line each for the accepted values, the default and the variable.
    var helpEntry: String {
        let value = valueName.map { " \($0)" } ?? ""
        var text = "  \(flag)\(value)"
        if !aliases.isEmpty { text += " (alias: \(aliases.map { $0 + value }.joined(separator: ", ")))" }
        text += "\n      \(meaning)\n"
        if !self.value.accepted.isEmpty { text += "      values: \(self.value.accepted)\n" }
        text += "      default: \(self.value.defaultValue(Settings()))\n"
        if let environmentVariable { text += "      env: \(environmentVariable)\n" }
        return text
    }
}

/// What an option's value may be and where it goes.
struct OptionValue<Settings>: Sendable {
    /// The accepted values in words (`0…65535`, `on|off`); empty for a switch.
    let accepted: String
    /// The default as `--help` shows it, from the settings' defaults.
    let defaultValue: @Sendable (Settings) -> String
    /// Stores a valid value, or says what is wrong with it.
    let apply: @Sendable (inout Settings, String) -> String?

    init(
        accepted: String, defaultValue: @escaping @Sendable (Settings) -> String,
        apply: @escaping @Sendable (inout Settings, String) -> String?
    ) {
        self.accepted = accepted
        self.defaultValue = defaultValue
        self.apply = apply
    }

    /// An integer in `range`.
    static func integer(
        _ range: ClosedRange<Int>, _ keyPath: SettingPath<Settings, Int>, defaultNote: String? = nil
    ) -> OptionValue {
        OptionValue(
            accepted: range.help,
            defaultValue: { settings in
                let value = String(settings[keyPath: keyPath])
                return defaultNote.map { "\($0) (\(value) here)" } ?? value
            }
        ) { settings, raw in
            guard let value = Int(raw), range.contains(value) else { return "must be an integer in \(range.help)" }
            settings[keyPath: keyPath] = value
            return nil
        }
    }

    /// An integer in `range`, or unset (`unset` says what that means).
    static func integer(
        _ range: ClosedRange<Int>, _ keyPath: SettingPath<Settings, Int?>, unset: String
    ) -> OptionValue {
        OptionValue(
            accepted: range.help, defaultValue: { settings in settings[keyPath: keyPath].map(String.init) ?? unset }
        ) { settings, raw in
            guard let value = Int(raw), range.contains(value) else { return "must be an integer in \(range.help)" }
            settings[keyPath: keyPath] = value
            return nil
        }
    }

    /// A number of seconds in `range`.
    static func seconds(_ range: ClosedRange<Double>, _ keyPath: SettingPath<Settings, Double>)
        -> OptionValue
    {
        let accepted = "\(range.lowerBound.formattedSeconds)…\(range.upperBound.formattedSeconds) seconds"
        return OptionValue(accepted: accepted, defaultValue: { $0[keyPath: keyPath].formattedSeconds }) {
            settings, raw in
            guard let value = Double(raw), value.isFinite, range.contains(value) else {
                return "must be a number of seconds in \(range.lowerBound.formattedSeconds)…"
                    + range.upperBound.formattedSeconds
            }
            settings[keyPath: keyPath] = value
            return nil
        }
    }

    /// `on` or `off` (also `true`/`false`, `1`/`0`).
    static func onOff(_ keyPath: SettingPath<Settings, Bool>) -> OptionValue {
        OptionValue(accepted: "on|off", defaultValue: { $0[keyPath: keyPath] ? "on" : "off" }) { settings, raw in
            switch raw {
            case "on", "true", "1": settings[keyPath: keyPath] = true
            case "off", "false", "0": settings[keyPath: keyPath] = false
            default: return "must be on or off"
            }
            return nil
        }
    }

    /// A non-empty string.
    static func text(_ keyPath: SettingPath<Settings, String>) -> OptionValue {
        OptionValue(accepted: "not empty", defaultValue: { $0[keyPath: keyPath] }) { settings, raw in
            guard !raw.isEmpty else { return "must not be empty" }
            settings[keyPath: keyPath] = raw
            return nil
        }
    }
}

extension ClosedRange<Int> {
    /// `1024…1073741824`.
    var help: String { "\(lowerBound)…\(upperBound)" }
}

extension Double {
    /// "0.1", "3600" rather than "3600.0".
    var formattedSeconds: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
