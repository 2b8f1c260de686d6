/// What the relay core throws inside: its `Problem` behind one reference.
/// A typed error is passed on at every `try`; `Problem` by value (a status,
/// four strings, the headers) is moved there field by field: 22 KB of the
/// core's 166 KB of code in the WebAssembly module (ADR 0041). One
/// reference is passed on in a register. `RelayCore.answer` throws the
/// `Problem` itself, as every other answer does.
struct RelayProblem: Error {
    final class Box: Sendable {
        let problem: Problem
        init(_ problem: Problem) { self.problem = problem }
    }

    let box: Box

    var problem: Problem { box.problem }

    @inline(never)
    init(_ problem: Problem) { box = Box(problem) }

    @inline(never)
    init(_ code: ProblemCode, _ detail: String, at path: String) { self.init(Problem(code, detail, at: path)) }

    @inline(never)
    static func missing(_ path: String) -> RelayProblem { RelayProblem(FieldDecoding.missing(path)) }

    @inline(never)
    static func typeMismatch(_ path: String, expected: String, got typeName: String) -> RelayProblem {
        RelayProblem(FieldDecoding.typeMismatch(path, expected: expected, got: typeName))
    }

    @inline(never)
    static func unknownMember(_ name: String, in parent: String, members: [String]) -> RelayProblem {
        RelayProblem(FieldDecoding.unknownMember(name, in: parent, members: members))
    }
}
