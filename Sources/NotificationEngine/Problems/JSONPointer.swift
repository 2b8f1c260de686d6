/// RFC 6901 JSON Pointers to the member a problem is about, written from the
/// field paths the decoders put in a problem's detail (`maxUnits`,
/// `notifications[1].timestamp`, `notifications[0].sender.name`).
enum JSONPointer {
    /// The pointer of a field path: `""` (the whole document) for the empty
    /// path, else `/` before each member name and each array index:
    /// `notifications[1].timestamp` is `/notifications/1/timestamp`. A name
    /// is escaped as RFC 6901 section 3 says (`~` as `~0`, `/` as `~1`).
    ///
    /// A path is names joined by `.`, each followed by any number of `[index]`;
    /// the request's member names hold no `.`, `[` or `]`.
    static func pointer(fromPath path: String) -> String {
        var pointer = ""
        pointer.reserveCapacity(path.utf8.count + 4)
        var atSegmentStart = true
        for scalar in path.unicodeScalars {
            switch scalar {
            case ".", "[":
                pointer.append("/")
                atSegmentStart = false
            case "]":
                break
            case "~":
                if atSegmentStart { pointer.append("/") }
                pointer.append("~0")
                atSegmentStart = false
            case "/":
                if atSegmentStart { pointer.append("/") }
                pointer.append("~1")
                atSegmentStart = false
            default:
                if atSegmentStart { pointer.append("/") }
                pointer.unicodeScalars.append(scalar)
                atSegmentStart = false
            }
        }
        return pointer
    }

    /// A member name as a reference token of a pointer: `~` written `~0` and
    /// `/` written `~1` (RFC 6901 section 3), anything else as it is; a name
    /// the request made up may hold `.`, `[` or `]`, which a path cannot.
    static func token(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return name }
        var token = ""
        token.reserveCapacity(name.utf8.count + 4)
        for scalar in name.unicodeScalars {
            switch scalar {
            case "~": token.append("~0")
            case "/": token.append("~1")
            default: token.unicodeScalars.append(scalar)
            }
        }
        return token
    }
}
