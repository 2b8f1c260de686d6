import Testing

@testable import EventHTTP

/// A connection's life as a value: every event and the action it returns,
/// without a socket (the record carries the actions out; `CapacityTests`
/// and `HTTPServerTests` prove the wiring live).
@Suite struct ConnectionLifeTests {
    static let second: UInt64 = 1_000_000_000
    static let limits = ConnectionLife.Limits(
        readTimeoutNanoseconds: 10 * second, graceNanoseconds: 2 * second, minHeadBytesPerSecond: 256,
        minBodyBytesPerSecond: 500)

    /// A life past its first request's reply: idle, `at` in the order.
    static func idle(at: UInt64 = 5 * second) -> ConnectionLife {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        life.framingStarted(now: second)
        _ = life.headComplete(hasBody: false, isChunked: false, declaredBodyBytes: nil, bodyBytesBuffered: 0, now: 0)
        _ = life.requestComplete()
        _ = life.replyWritten(pendingBytes: 0, idleOrder: at)
        return life
    }

    /// A `Content-Length` body of `declared` bytes, `buffered` of them in, from `start`.
    static func uploading(declared: Int, buffered: Int, start: UInt64 = second) -> (
        ConnectionLife, ConnectionLife.Action
    ) {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        life.framingStarted(now: start)
        let action = life.headComplete(
            hasBody: true, isChunked: false, declaredBodyBytes: declared, bodyBytesBuffered: buffered, now: start)
        return (life, action)
    }

    // MARK: Accept and the head

    @Test func newConnection_framesWhatArrives_andCountsAsASlowHeadFromItsAccept() {
        var life = ConnectionLife(acceptedAtNanoseconds: 7)
        #expect(life.stage == .waiting(idleOrder: nil))
        #expect(life.bytesArrived(10) == .frame)
        #expect(life.headStartNanoseconds(isReadingHead: true) == 7)
        life.framingStarted(now: 9)
        #expect(life.headStartNanoseconds(isReadingHead: true) == 9)
        #expect(life.stage == .framing(startNanoseconds: 9, body: nil))
        #expect(life.headStartNanoseconds(isReadingHead: false) == nil)
    }

    @Test func onProbation_isNeverTakenForASlowHead() {
        var life = ConnectionLife(acceptedAtNanoseconds: 7)
        life.beginProbation(because: .memoryBudget)
        #expect(life.isOnProbation)
        #expect(life.probation == .memoryBudget)
        #expect(life.headStartNanoseconds(isReadingHead: true) == nil)
    }

    @Test func headWithoutBody_isAnsweredAtOnce() {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        life.framingStarted(now: 1)
        let action = life.headComplete(
            hasBody: false, isChunked: false, declaredBodyBytes: nil, bodyBytesBuffered: 0, now: 0)
        #expect(action == .answer)
        #expect(life.stage == .bodyReading(startNanoseconds: 1, body: nil))
        #expect(life.bodyStartNanoseconds == nil)
        #expect(life.bytesArrived(100) == .none)
    }

    @Test func bodyThatCameWithItsHead_isAnsweredAtOnce() {
        let (life, action) = Self.uploading(declared: 100, buffered: 100)
        #expect(action == .answer)
        #expect(life.stage == .bodyReading(startNanoseconds: Self.second, body: nil))
        #expect(life.bodyStartNanoseconds == nil)
    }

    @Test func bodyStillToCome_isCounted_andAnsweredAtItsLastByte() {
        var (life, action) = Self.uploading(declared: 100, buffered: 10)
        #expect(action == .watchInput)
        #expect(
            life.stage
                == .bodyReading(
                    startNanoseconds: Self.second,
                    body: ConnectionLife.Body(startNanoseconds: Self.second, receivedBytes: 10, declaredBytes: 100)))
        #expect(life.isCountingBody)
        #expect(life.bytesArrived(50) == .none)
        #expect(life.body?.receivedBytes == 60)
        #expect(life.bytesArrived(40) == .answer)
    }

    @Test func chunkedBody_isFramedToItsEnd_thenAnswered() {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        life.framingStarted(now: 1)
        #expect(
            life.headComplete(hasBody: true, isChunked: true, declaredBodyBytes: nil, bodyBytesBuffered: 0, now: 1)
                == .none)
        #expect(life.stage == .framing(startNanoseconds: 1, body: ConnectionLife.Body(startNanoseconds: 1)))
        #expect(life.bytesArrived(30) == .frame)
        #expect(life.body?.receivedBytes == 30)
        #expect(!life.isCountingBody)
        #expect(life.chunkedBodyComplete() == .answer)
        #expect(life.stage == .bodyReading(startNanoseconds: 1, body: nil))
        #expect(life.bodyStartNanoseconds == nil)
    }

    // MARK: The request and its reply

    @Test func requestComplete_pendsTheReply_andForgetsTheBody() {
        var (life, _) = Self.uploading(declared: 100, buffered: 10)
        #expect(life.requestComplete() == .none)
        #expect(life.stage == .replyPending)
        #expect(life.isReplyPending)
        #expect(life.hasServedRequest)
        #expect(life.requestStartNanoseconds == nil)
        #expect(life.body == nil)
        #expect(life.replyQueued() == .stopReading)
        #expect(life.bytesArrived(5) == .none)
    }

    @Test func replyWritten_withNothingBuffered_leavesTheConnectionIdleSinceThen() {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        _ = life.headComplete(hasBody: false, isChunked: false, declaredBodyBytes: nil, bodyBytesBuffered: 0, now: 0)
        #expect(life.requestComplete() == .none)
        #expect(life.replyWritten(pendingBytes: 0, idleOrder: 42) == .watchInput)
        #expect(life.stage == .waiting(idleOrder: 42))
        #expect(life.idleOrder == 42)
        #expect(life.isIdle(hasUnreadBytes: false))
        #expect(!life.isIdle(hasUnreadBytes: true))
        // An idle connection is neither a slow head nor a timed-out request.
        #expect(life.headStartNanoseconds(isReadingHead: true) == nil)
        #expect(
            life.sweep(
                now: 100 * Self.second, limits: Self.limits, headBytes: 0, closesIdle: false, hasUnreadBytes: false)
                == .none)
    }

    @Test func replyWritten_withAPipelinedRequest_framesIt_andIsNotIdle() {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        _ = life.headComplete(hasBody: false, isChunked: false, declaredBodyBytes: nil, bodyBytesBuffered: 0, now: 0)
        _ = life.requestComplete()
        #expect(life.replyWritten(pendingBytes: 30, idleOrder: 42) == .framePending)
        #expect(life.stage == .waiting(idleOrder: nil))
        #expect(life.idleOrder == nil)
    }

    @Test func nextBytes_endTheIdleWait() {
        var life = Self.idle(at: 5)
        life.framingStarted(now: 6)
        #expect(life.idleOrder == nil)
        #expect(life.requestStartNanoseconds == 6)
        #expect(!life.isIdle(hasUnreadBytes: false))
    }

    @Test func replyWritten_outsideReplyPending_changesNothing() {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        #expect(life.replyWritten(pendingBytes: 0, idleOrder: 1) == .none)
        #expect(life.stage == .waiting(idleOrder: nil))
        #expect(life.replyQueued() == .none)
    }

    // MARK: Refusing

    @Test func refuse_schedulesOneTakeOver_thenDiscardsWhatArrives_andLingersToItsDeadline() {
        var life = Self.idle()
        #expect(life.refuse() == .scheduleTakeOver)
        #expect(life.stage == .refusalPending)
        #expect(life.refuse() == .none)
        #expect(life.bytesArrived(10) == .discard)
        #expect(
            life.sweep(
                now: 100 * Self.second, limits: Self.limits, headBytes: nil, closesIdle: true, hasUnreadBytes: false)
                == .none)
        life.beginRefusal(now: 10, lingerNanoseconds: Self.second)
        #expect(life.stage == .refusing(lingerDeadlineNanoseconds: Self.second + 10))
        #expect(life.isRefused)
        #expect(life.refuse() == .none)
        #expect(life.bytesArrived(10) == .discard)
        #expect(
            life.sweep(
                now: Self.second + 10, limits: Self.limits, headBytes: nil, closesIdle: false, hasUnreadBytes: false)
                == .none)
        #expect(
            life.sweep(
                now: Self.second + 11, limits: Self.limits, headBytes: nil, closesIdle: false, hasUnreadBytes: false)
                == .finishRefusal)
    }

    @Test func refusal_carriesNoRequestTimesNorBody() {
        var (life, _) = Self.uploading(declared: 100, buffered: 10)
        #expect(life.body != nil)
        #expect(life.refuse() == .scheduleTakeOver)
        #expect(life.body == nil)
        #expect(life.requestStartNanoseconds == nil)
        #expect(!life.isBodyTooSlow(now: 100 * Self.second, limits: Self.limits))
        #expect(life.bodyBytesPerSecond(now: 100 * Self.second, graceNanoseconds: 0) == nil)
        #expect(life.requestComplete() == .none)
        #expect(life.stage == .refusalPending)
    }

    // MARK: The sweep

    @Test func requestPastTheReadTimeout_isClosed_butNotWhileTheHandlerHasIt() {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        life.framingStarted(now: Self.second)
        // 3,000 bytes: the head keeps its rate, only the timeout applies.
        #expect(
            life.sweep(
                now: 11 * Self.second, limits: Self.limits, headBytes: 3_000, closesIdle: false, hasUnreadBytes: false)
                == .none)
        #expect(
            life.sweep(
                now: 11 * Self.second + 1, limits: Self.limits, headBytes: 3_000, closesIdle: false,
                hasUnreadBytes: false) == .close)
        _ = life.headComplete(hasBody: false, isChunked: false, declaredBodyBytes: nil, bodyBytesBuffered: 0, now: 0)
        _ = life.requestComplete()
        #expect(
            life.sweep(
                now: 60 * Self.second, limits: Self.limits, headBytes: nil, closesIdle: false, hasUnreadBytes: false)
                == .none)
    }

    @Test func headUnderTheMinimumRate_isClosed_onlyOnceTheGraceHasPassed() {
        var life = ConnectionLife(acceptedAtNanoseconds: 0)
        life.framingStarted(now: Self.second)
        // 3 s in: 256 B/s needs 768 bytes.
        let now = 4 * Self.second
        #expect(life.isHeadTooSlow(now: now, limits: Self.limits, headBytes: 767))
        #expect(!life.isHeadTooSlow(now: now, limits: Self.limits, headBytes: 768))
        #expect(!life.isHeadTooSlow(now: 3 * Self.second, limits: Self.limits, headBytes: 0))
        #expect(
            life.sweep(now: now, limits: Self.limits, headBytes: 10, closesIdle: false, hasUnreadBytes: false) == .close
        )
    }

    @Test func bodyUnderTheMinimumRate_isClosed_onlyOnceTheGraceHasPassed() {
        var (life, _) = Self.uploading(declared: 900_000, buffered: 8)
        // 8 bytes every 0.2 s: 40 B/s.
        #expect(!life.isBodyTooSlow(now: 2 * Self.second, limits: Self.limits))
        _ = life.bytesArrived(112)
        #expect(life.isBodyTooSlow(now: 4 * Self.second, limits: Self.limits))
        _ = life.bytesArrived(2_000)
        // 2,120 bytes in 3 s: over 500 B/s.
        #expect(!life.isBodyTooSlow(now: 4 * Self.second, limits: Self.limits))
        #expect(life.bodyBytesPerSecond(now: 4 * Self.second, graceNanoseconds: 2 * Self.second) == 2_120.0 / 3)
        // No rate before the grace: a body just begun is not the slowest.
        #expect(life.bodyBytesPerSecond(now: 2 * Self.second, graceNanoseconds: 2 * Self.second) == nil)
    }

    @Test func bodyHeldBackByTheKernel_countsTowardItsRate_askedOnlyWhenItLooksTooSlow() {
        var (life, _) = Self.uploading(declared: 60_000, buffered: 0)
        _ = life.bytesArrived(1_200)
        // 1,200 bytes seen in 3 s (400 B/s); 800 more wait below the low-water mark: 666 B/s.
        let now = 4 * Self.second
        #expect(life.isBodyTooSlow(now: now, limits: Self.limits))
        #expect(!life.isBodyTooSlow(now: now, limits: Self.limits, heldBackBytes: 800))
        var asked = 0
        func heldBack(_ bytes: Int) -> Int {
            asked += 1
            return bytes
        }
        let limits = Self.limits
        #expect(
            life.sweep(
                now: now, limits: limits, headBytes: nil, closesIdle: false, hasUnreadBytes: false,
                heldBackBodyBytes: heldBack(800)) == .none)
        #expect(
            life.sweep(
                now: now, limits: limits, headBytes: nil, closesIdle: false, hasUnreadBytes: false,
                heldBackBodyBytes: heldBack(100)) == .close)
        #expect(asked == 2)
        // A body fast enough on its own never asks the kernel.
        _ = life.bytesArrived(2_000)
        #expect(
            life.sweep(
                now: now, limits: limits, headBytes: nil, closesIdle: false, hasUnreadBytes: false,
                heldBackBodyBytes: heldBack(0)) == .none)
        #expect(asked == 2)
        #expect(life.bodyBytesPerSecond(now: now, graceNanoseconds: 0, heldBackBytes: 1_024) == 4_224.0 / 3)
    }

    /// What the kernel said it held back, kept until the next read, is a
    /// floor: while it keeps the body above the minimum, the kernel is not
    /// asked again; once it no longer does, it is.
    @Test func heldBackBytesLastAsked_spareTheNextAsk_whileTheyKeepTheBodyFastEnough() {
        var (life, _) = Self.uploading(declared: 60_000, buffered: 0)
        _ = life.bytesArrived(1_200)
        var asked = 0
        func heldBack(_ bytes: Int) -> Int {
            asked += 1
            return bytes
        }
        let limits = Self.limits
        // 1,200 read and 800 known held back in 3 s: 666 B/s, no ask.
        #expect(
            life.sweep(
                now: 4 * Self.second, limits: limits, headBytes: nil, closesIdle: false, hasUnreadBytes: false,
                knownHeldBackBodyBytes: 800, heldBackBodyBytes: heldBack(800)) == .none)
        #expect(asked == 0)
        // Two seconds on the same floor is 400 B/s: the kernel is asked, and holds more.
        #expect(
            life.sweep(
                now: 6 * Self.second, limits: limits, headBytes: nil, closesIdle: false, hasUnreadBytes: false,
                knownHeldBackBodyBytes: 800, heldBackBodyBytes: heldBack(1_600)) == .none)
        #expect(asked == 1)
    }

    @Test func idleConnection_closesAtADrainThatKeepsNone_unlessBytesWaitInTheKernel() {
        let life = Self.idle()
        #expect(
            life.sweep(now: 6 * Self.second, limits: Self.limits, headBytes: 0, closesIdle: true, hasUnreadBytes: false)
                == .close)
        #expect(
            life.sweep(now: 6 * Self.second, limits: Self.limits, headBytes: 0, closesIdle: true, hasUnreadBytes: true)
                == .none)
    }
}
