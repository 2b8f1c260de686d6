import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// A refused request's connection: the refusal decided (nothing more is
/// read as a request), the connection taken over on the loop's next turn,
/// the answer written and the writing side shut, and what the client still
/// sends discarded until the connection closes.
extension ConnectionRecord {
    /// `503 too-many-connections`: the budget cannot take what this
    /// connection's request holds (or it is on probation and not a probe:
    /// then the words name the limit that put it there).
    func refuseForWantOfMemory() {
        let request = table.headRequest(framer.head)
        let rejection = table.rejection(holding: life.probation ?? .memoryBudget)
        refuse(
            Refusal(
                response: table.handler.reject(request, because: rejection), request: request, rejection: rejection))
    }

    /// Decides a refusal: nothing more is framed (what is buffered is
    /// discarded), and the loop takes the connection over once the current
    /// callback has returned (the framer may still be on the stack).
    func refuse(_ refusal: Refusal) {
        let action = life.refuse()
        guard action != .none else { return }
        self.refusal = refusal
        // What the client still sends is discarded as it comes.
        setReceiveLowWater(1)
        let input = bufferevent_get_input(bufferEvent)!
        evbuffer_drain(input, evbuffer_get_length(input))
        perform(action)
    }

    /// Takes the connection over: the refusal's callbacks on the
    /// bufferevent in place of the request's, the answer queued, reading on
    /// to discard until `finishRefusal`.
    func beginRefusal(answer bytes: [UInt8], lingerNanoseconds: UInt64) {
        life.beginRefusal(now: MonotonicClock.nanoseconds(), lingerNanoseconds: lingerNanoseconds)
        let argument = Unmanaged.passUnretained(self).toOpaque()
        bufferevent_setcb(
            bufferEvent, nil,
            { _, argument in
                // The answer is in the kernel: end our side, keep reading.
                guard let argument else { return }
                Unmanaged<ConnectionRecord>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.answerWritten() }
            },
            { _, _, argument in
                // End of file, an error or a timeout: the client is done, or gone.
                guard let argument else { return }
                // Retained here: closing drops the table's reference.
                let record = Unmanaged<ConnectionRecord>.fromOpaque(argument).takeUnretainedValue()
                record.table.finishRefusal(record)
            }, argument)
        _ = bytes.withUnsafeBytes { bufferevent_write(bufferEvent, $0.baseAddress, $0.count) }
        bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
    }

    private func answerWritten() {
        bufferevent_disable(bufferEvent, Int16(EV_WRITE))
        let descriptor = bufferevent_getfd(bufferEvent)
        if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_WR)) }
    }

    /// Reads and drops what the kernel still holds, so closing does not
    /// answer those bytes with a reset that could destroy the answer.
    func discardUnread() {
        let descriptor = bufferevent_getfd(bufferEvent)
        guard descriptor >= 0 else { return }
        withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 8) { scratch in
            for _ in 0..<16 where recv(descriptor, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
    }
}
