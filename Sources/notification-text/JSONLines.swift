import NotificationService

/// `--json-lines`: one request per line of the input, one answer per line of
/// the output, in order.
///
/// - Every line gets exactly one answer, blank lines too (answered as an
///   empty body is), so output line N answers input line N. A line ends at
///   `\n`; the last one needs none. A `\r` before the `\n` is JSON whitespace.
/// - A line longer than `maxLineBytes` is answered with `tooLong` (the 413
///   problem) and never held in memory whole.
/// - The output is written before every read of the input, so a caller that
///   sends one line and waits (a terminal, a coprocess) gets its answer at
///   once; a file or a busy pipe gets writes of about 64 KiB.
enum JSONLines {
    static let writeBytes = 65_536

    /// Reads `input` to its end (in chunks of `ProcessIO.chunkBytes`) and
    /// writes the answers to `output`; the `errno` of a failed read, else nil.
    static func run(
        input: Int32, output: Int32, maxLineBytes: Int, tooLong: [UInt8], answer: ([UInt8]) -> [UInt8]
    ) -> Int32? {
        var splitter = LineSplitter(maxLineBytes: maxLineBytes)
        var out = LineOutput(descriptor: output)
        func emit(_ line: LineSplitter.Line) {
            switch line {
            case .complete(let bytes): out.append(answer(bytes))
            case .tooLong: out.append(tooLong)
            }
        }
        let failure = ProcessIO.readChunks(from: input, beforeEachRead: { out.flush() }) { chunk in
            splitter.feed(chunk, emit)
        }
        if failure == nil { splitter.finish(emit) }
        out.flush()
        return failure
    }
}

/// Answers collected and written in blocks.
struct LineOutput {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(JSONLines.writeBytes * 2)
    }

    mutating func append(_ answer: [UInt8]) {
        buffer.append(contentsOf: answer)
        buffer.append(0x0A)
        if buffer.count >= JSONLines.writeBytes { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        CLI.writeAll(buffer, to: descriptor)
        buffer.removeAll(keepingCapacity: true)
    }
}

extension JSONLines {
    /// stdin to stdout; exits with 74 when stdin cannot be read.
    static func runOnStandardStreams(maxLineBytes: Int, answer: ([UInt8]) -> [UInt8]) {
        let tooLong = ServiceAnswers.payloadTooLarge(maxBytes: maxLineBytes).jsonBody()
        if let failure = run(input: 0, output: 1, maxLineBytes: maxLineBytes, tooLong: tooLong, answer: answer) {
            CLI.fail("stdin cannot be read: \(ProcessIO.errorDescription(errno: failure))", status: CLI.ioError)
        }
    }

    static let helpNotes = """
        --json-lines: each line of stdin is one request body, exactly as the HTTP route takes it, and
        gets one line of stdout, in order: the answer, or the problem object HTTP answers with (same
        code, detail, status and title), and the stream goes on. Blank lines are answered too (as an
        empty body: invalid-json), so output line N always answers input line N. Answers are written
        whenever no complete line is waiting, so a caller that sends one line gets its answer at once.
        Exit status 0 at the end of stdin, whatever the lines held.
        """
}
