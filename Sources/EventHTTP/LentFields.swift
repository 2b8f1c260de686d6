import CLibevent

#if canImport(Glibc)
import Glibc
#endif

/// The `Date` and `Content-Length` fields the adapter makes for a reply, as
/// entries of evhttp's output list that the adapter owns: lent to the list
/// for the length of one `evhttp_send_reply` and taken back before the
/// request can be freed. evhttp's bookkeeping finds them there as it would
/// its own (so it adds neither), the head is written from the list, and
/// neither costs the three allocations and frees of an `evhttp_add_header`.
///
/// Only these two: evhttp decides nothing after `evhttp_send_reply` from
/// them, while `Connection` it reads again once the reply is out, so that
/// one always goes on the list as evhttp's own. One per event-loop thread.
final class LentFields {
    /// "Sun, 06 Nov 1994 08:49:37 GMT" and its NUL.
    private static let dateValueCapacity = 30
    /// Any `Int` in decimal and its NUL.
    private static let lengthValueCapacity = 24

    private let entries = UnsafeMutablePointer<evkeyval>.allocate(capacity: 2)
    private let text: UnsafeMutablePointer<CChar>
    private var dateIsLent = false
    private var lengthIsLent = false
    /// The lent values' lengths, so the head is written without measuring them again.
    private var dateValueCount = 0
    private var lengthValueCount = 0

    init() {
        let dateName: StaticString = "Date"
        let lengthName: StaticString = "Content-Length"
        let capacity =
            dateName.utf8CodeUnitCount + 1 + Self.dateValueCapacity + lengthName.utf8CodeUnitCount + 1
            + Self.lengthValueCapacity
        text = .allocate(capacity: capacity)
        text.initialize(repeating: 0, count: capacity)
        var next = text
        func store(_ name: StaticString) -> UnsafeMutablePointer<CChar> {
            let start = next
            UnsafeMutableRawPointer(start).copyMemory(from: name.utf8Start, byteCount: name.utf8CodeUnitCount)
            next += name.utf8CodeUnitCount + 1
            return start
        }
        let dateKey = store(dateName)
        let dateValue = next
        next += Self.dateValueCapacity
        let lengthKey = store(lengthName)
        let lengthValue = next
        entries.initialize(to: evkeyval(next: .init(), key: dateKey, value: dateValue))
        (entries + 1).initialize(to: evkeyval(next: .init(), key: lengthKey, value: lengthValue))
    }

    deinit {
        entries.deallocate()
        text.deallocate()
    }

    /// Appends `Date: value` to `list`; `value` is NUL-terminated and no
    /// longer than an IMF-fixdate.
    func lendDate(_ value: UnsafePointer<CChar>, to list: UnsafeMutablePointer<evkeyvalq>) {
        let byteCount = min(strlen(value), Self.dateValueCapacity - 1)
        let stored = entries[0].value!
        UnsafeMutableRawPointer(stored).copyMemory(from: value, byteCount: byteCount)
        stored[byteCount] = 0
        dateValueCount = byteCount
        clibevent_header_append(list, entries)
        dateIsLent = true
    }

    /// Appends `Content-Length: byteCount` to `list`.
    func lendContentLength(_ byteCount: Int, to list: UnsafeMutablePointer<evkeyvalq>) {
        let stored = entries[1].value!
        stored.withMemoryRebound(to: UInt8.self, capacity: Self.lengthValueCapacity) { digits in
            var text = ReplyHead(at: digits)
            text.appendDecimal(byteCount)
            text.end.pointee = 0
            lengthValueCount = text.end - digits
        }
        clibevent_header_append(list, entries + 1)
        lengthIsLent = true
    }

    /// The name's and the value's lengths when `entry` is one of the lent
    /// entries ("Date" and "Content-Length" are 4 and 14 bytes), else nil.
    func byteCounts(of entry: UnsafeMutablePointer<evkeyval>) -> (name: Int, value: Int)? {
        if entry == entries { return (4, dateValueCount) }
        if entry == entries + 1 { return (14, lengthValueCount) }
        return nil
    }

    /// Takes the lent entries off `list` again.
    func takeBack(from list: UnsafeMutablePointer<evkeyvalq>) {
        if dateIsLent { clibevent_header_unlink(list, entries) }
        if lengthIsLent { clibevent_header_unlink(list, entries + 1) }
        dateIsLent = false
        lengthIsLent = false
    }
}
