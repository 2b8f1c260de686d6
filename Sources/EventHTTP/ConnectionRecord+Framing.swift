import CLibevent
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a request fed to its `RequestFramer` as they arrive, and
/// what is done with what the framer finds: a head screened or refused
/// before its body is read, the rest of a `Content-Length` body read at
/// once when its head is complete, a chunked body followed to its end, a
/// body charged as it arrives, and the request answered once it is whole.
extension ConnectionRecord {
    func inputDidGrow(_ input: OpaquePointer, addedByteCount: Int) {
        guard !isReadingAhead else { return }
        let watchesBody = life.isCountingBody
        let action = life.bytesArrived(addedByteCount)
        switch action {
        case .frame:
            requestReceivedBytes += addedByteCount
            let length = evbuffer_get_length(input)
            frame(
                input, from: length - addedByteCount, count: addedByteCount,
                readsBodyOn: addedByteCount >= Self.libeventReadLimit)
        case .discard:
            // Nothing a refused client sends is read as a request.
            evbuffer_drain(input, evbuffer_get_length(input))
        default:
            // A `Content-Length` body that did not come whole with its head
            // (or what a pipelining client sends behind a request): charged
            // as it arrives, answered at its last byte.
            requestReceivedBytes += addedByteCount
            // The kernel's held-back bytes were read: the sweep asks anew.
            knownHeldBackBodyBytes = 0
            guard chargeHeld(Self.bodyHeldBytes(receivedBytes: requestReceivedBytes)) else {
                return refuseForWantOfMemory()
            }
            guard watchesBody else { return }
            if let body = life.body {
                holdBackTrickle(addedByteCount: addedByteCount, remainingBytes: body.declaredBytes - body.receivedBytes)
            } else {
                setReceiveLowWater(1)
            }
            perform(action)
        }
    }

    /// libevent 2.1 reads at most this much from a socket per turn of the
    /// loop (`EVBUFFER_MAX_READ`): a read of this size may have left more
    /// in the kernel.
    private static var libeventReadLimit: Int { 4096 }

    /// At most this much of a body is read ahead of libevent at once.
    static var eagerBodyReadLimit: Int { 65_536 }

    /// Feeds `count` bytes of `input` from `offset` to the framer, and acts
    /// on what it finds. `readsBodyOn`: the bytes came from a read that may
    /// have left the rest of the request in the kernel.
    func frame(_ input: OpaquePointer, from offset: Int, count: Int, readsBodyOn: Bool = false) {
        if case .waiting = life.stage { life.framingStarted(now: MonotonicClock.nanoseconds()) }
        defer { if life.isFraming, !chargeHeld(requestHeldBytes) { refuseForWantOfMemory() } }
        // Usually one chain holds the whole buffer: no position to set.
        var vector = iovec()
        if evbuffer_peek(input, -1, nil, &vector, 1) == 1, vector.iov_len >= offset + count, let base = vector.iov_base
        {
            _ = feed(
                UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + offset, count: count),
                at: offset, of: readsBodyOn ? input : nil)
            return
        }
        var position = evbuffer_ptr()
        guard evbuffer_ptr_set(input, &position, offset, EVBUFFER_PTR_SET) == 0 else { return }
        var remaining = count
        while remaining > 0 {
            guard evbuffer_peek(input, remaining, &position, &vector, 1) >= 1, let base = vector.iov_base else {
                return
            }
            let piece = min(remaining, vector.iov_len)
            guard
                feed(
                    UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: piece),
                    at: offset + count - remaining, of: readsBodyOn ? input : nil)
            else { return }
            remaining -= piece
            guard evbuffer_ptr_set(input, &position, piece, EVBUFFER_PTR_ADD) == 0 else { return }
        }
    }

    /// Feeds contiguous bytes, at `offset` in the input; false once the
    /// framer wants no more of this request. With `input`, the rest of a
    /// `Content-Length` body is read at once when the head is complete.
    private func feed(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, of input: OpaquePointer?) -> Bool {
        var fed = 0
        while fed < bytes.count {
            let (taken, verdict) = framer.feed(UnsafeBufferPointer(rebasing: bytes[fed...]))
            fed += taken
            switch verdict {
            case .needMore:
                if taken == 0 { return false }
            case .headComplete(let hasBody, let isChunked):
                if hasBody, table.screensHeads, let screened = table.screen(framer.head) {
                    refuse(
                        Refusal(
                            response: screened, request: table.headRequest(framer.head), rejection: nil))
                    return false
                }
                if hasBody && life.isOnProbation {
                    // No probe has a body: past capacity, it is not read.
                    refuseForWantOfMemory()
                    return false
                }
                if hasBody,
                    !promiseBody(isChunked ? framer.limits.maxBodyBytes : framer.head.contentLength ?? 0)
                {
                    refuseForWantOfMemory()
                    return false
                }
                headEndOffset = offset + fed
                if isChunked {
                    _ = life.headComplete(
                        hasBody: true, isChunked: true, declaredBodyBytes: nil, bodyBytesBuffered: 0,
                        now: MonotonicClock.nanoseconds())
                    continueIfExpected()
                    continue
                }
                // No body, or a Content-Length body: the rest of it is read
                // at once, our callback letting those bytes be.
                if hasBody, let input {
                    isReadingAhead = true
                    requestReceivedBytes += readRestOfBody(input, bodyStart: headEndOffset)
                    isReadingAhead = false
                }
                let buffered = evbuffer_get_length(self.input) - headEndOffset
                let action = life.headComplete(
                    hasBody: hasBody, isChunked: false, declaredBodyBytes: framer.head.contentLength,
                    bodyBytesBuffered: buffered, now: hasBody ? MonotonicClock.nanoseconds() : 0)
                if hasBody && !chargeHeld(Self.bodyHeldBytes(receivedBytes: requestReceivedBytes)) {
                    refuseForWantOfMemory()
                    return false
                }
                if action == .watchInput { continueIfExpected() }
                perform(action)
                return false
            case .bodyComplete:
                chunkedBodyEndOffset = offset + fed
                perform(life.chunkedBodyComplete())
                return false
            case .refused(let rejection):
                let request = table.headRequest(framer.head)
                refuse(
                    Refusal(
                        response: table.handler.reject(request, because: rejection), request: request,
                        rejection: rejection))
                return false
            }
        }
        return true
    }

    /// `100 Continue` to an HTTP/1.1 client that expects it before it
    /// sends a body none of which has come yet (RFC 9110 section 10.1.1).
    private func continueIfExpected() {
        guard framer.head.expectsContinue, framer.head.minorVersion == 1,
            evbuffer_get_length(input) == headEndOffset
        else { return }
        let line: StaticString = "HTTP/1.1 100 Continue\r\n\r\n"
        evbuffer_add(output, line.utf8Start, line.utf8CodeUnitCount)
    }

    /// Reads what the kernel holds of the body whose first bytes start at
    /// `bodyStart` in `input`, up to its declared length, ahead of libevent:
    /// libevent reads at most 4 KiB a turn, so a larger request would
    /// otherwise take another turn of the loop, another readiness event and
    /// two more system calls before the request is whole. Nothing past the
    /// body is read. Our callback lets these bytes be (`isReadingAhead`), so
    /// they are counted here only; a failed or empty read leaves everything
    /// to libevent, which sees the same end of file or error on its next read.
    private func readRestOfBody(_ input: OpaquePointer, bodyStart: Int) -> Int {
        guard let declared = framer.head.contentLength else { return 0 }
        let missing = min(declared - (evbuffer_get_length(input) - bodyStart), Self.eagerBodyReadLimit)
        let descriptor = bufferevent_getfd(bufferEvent)
        guard missing > 0, descriptor >= 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { extents -> Int in
            guard let vectors = extents.baseAddress else { return 0 }
            let count = evbuffer_reserve_space(input, missing, vectors, 2)
            guard count > 0 else { return 0 }
            // Reserved space is read into only up to `missing` bytes.
            var room = missing
            for index in 0..<Int(count) {
                vectors[index].iov_len = min(vectors[index].iov_len, room)
                room -= vectors[index].iov_len
            }
            let read = readv(descriptor, vectors, count)
            guard read > 0 else {
                evbuffer_commit_space(input, vectors, 0)
                return 0
            }
            var unfilled = read
            var used: Int32 = 0
            while unfilled > 0 {
                let index = Int(used)
                vectors[index].iov_len = min(vectors[index].iov_len, unfilled)
                unfilled -= vectors[index].iov_len
                used += 1
            }
            evbuffer_commit_space(input, vectors, used)
            return read
        }
    }
}
