import HTTPCore
import Testing

@testable import NotificationEngine
@testable import NotificationService

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered sink on a temporary file: what the access log writes straight
/// into the thread's buffer must come out as the lines `AccessLog.line` makes.
@Suite struct ThreadLineBuffersTests {
    /// The bytes a buffered sink on a fresh file wrote, after `body` and a flush.
    private func written(_ body: (LogSink) -> Void) -> [UInt8] {
        var template = Array("/tmp/thread-line-buffers-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        #expect(descriptor >= 0)
        defer {
            close(descriptor)
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        let sink = LogSink.buffered(descriptor: descriptor)
        body(sink)
        sink.flush()
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            contents += chunk[..<count]
            offset += off_t(count)
        }
        return contents
    }

    private func entry(_ index: Int, requestID: String) -> AccessLog {
        AccessLog(
            timeNanosecondsSinceEpoch: 1_764_417_600_000_000_000 + Int64(index) * 1_001, method: "POST",
            route: "/body", status: index % 7 == 0 ? 415 : 200, bytes: index, durationNanoseconds: UInt64(index) * 997,
            requestID: HTTPRequestID(requestID))
    }

    @Test func accessLines_writtenInPlacePastManyFlushes_matchTheLinesAsArraysInOrder() {
        // Enough lines to fill the buffer several times over, of varying lengths,
        // some with request ids that need escapes.
        let entries = (0..<2_000).map { index in
            entry(index, requestID: index % 5 == 0 ? #"id"\\#(index)"# : String(repeating: "r", count: index % 129))
        }
        let expected = entries.flatMap(\.line)
        let bytes = written { sink in
            for entry in entries { entry.write(to: sink) }
        }
        #expect(bytes.count == expected.count)
        #expect(bytes == expected)
    }

    @Test func arrayLinesAndInPlaceLines_interleave_inOrder() {
        let first = entry(1, requestID: "a")
        let second = entry(2, requestID: "b")
        let rejected = Array(#"{"event":"rejected"}"#.utf8) + [0x0A]
        let bytes = written { sink in
            first.write(to: sink)
            sink.write(rejected)
            second.write(to: sink)
        }
        #expect(bytes == first.line + rejected + second.line)
    }

    @Test func aLineLongerThanTheBuffer_goesOutWhole_betweenTheLinesAroundIt() {
        let first = entry(1, requestID: "a")
        let long = Array(repeating: UInt8(ascii: "x"), count: ThreadLineBuffers.flushThresholdBytes * 2) + [0x0A]
        let second = entry(2, requestID: "b")
        let bytes = written { sink in
            first.write(to: sink)
            sink.write(long)
            second.write(to: sink)
        }
        #expect(bytes.count == first.line.count + long.count + second.line.count)
        #expect(bytes == first.line + long + second.line)
    }

    @Test func unbufferedSink_getsTheSameLineAsAnArray() {
        let capture = LogCapture()
        let line = entry(3, requestID: "c")
        line.write(to: capture.sink)
        #expect(capture.lines == [String(decoding: line.line, as: UTF8.self)])
    }
}
