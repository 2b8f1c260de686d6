import Testing

@testable import EventHTTP

/// The connection limit and the memory budget shared by a server's loops.
@Suite struct ConnectionBudgetTests {
    @Test func charge_isRefusedPastTheBudget_andLeavesNothingCharged() {
        let budget = ConnectionBudget(limit: 4, memoryBytes: 1_000)
        #expect(budget.charge(600))
        #expect(!budget.charge(401))
        #expect(budget.chargedByteCount == 600)
        #expect(budget.charge(400))
        #expect(!budget.charge(1))
        budget.discharge(600)
        #expect(budget.chargedByteCount == 400)
        #expect(budget.charge(600))
    }

    @Test func withoutABudget_nothingIsCounted() {
        let budget = ConnectionBudget(limit: 4)
        #expect(budget.charge(1 << 40))
        #expect(budget.chargedByteCount == 0)
    }

    @Test func admit_countsEveryConnection_andSaysWhichArePastTheLimit() {
        let budget = ConnectionBudget(limit: 2)
        #expect(budget.admit())
        #expect(budget.admit())
        #expect(!budget.admit())
        #expect(budget.count == 3)
        budget.release()
        budget.release()
        #expect(budget.admit())
    }

    @Test func anIdleConnection_isChargedAFewKibibytes_whateverTheLimits() {
        var configuration = HTTPServerConfiguration()
        configuration.maxBodyBytes = 1 << 20
        configuration.maxHeaderBytes = 65_536
        #expect(configuration.connectionBaseBytes == 8_192)
    }

    @Test func bytesAlreadyHeld_areChargedPastTheBudget_andLeaveNoRoom() {
        let budget = ConnectionBudget(limit: 4, memoryBytes: 1_000)
        #expect(budget.charge(900))
        #expect(budget.availableByteCount == 100)
        budget.chargeHeld(300)
        #expect(budget.chargedByteCount == 1_200)
        #expect(budget.availableByteCount == 0)
        #expect(!budget.charge(1))
        budget.discharge(300)
        #expect(budget.availableByteCount == 100)
    }

    @Test func theKernelsBuffers_areBounded_andTheirChargeFollowsWhatTheSendQueueHolds() {
        // Linux doubles what is asked for, plus a segment's overhead each.
        #expect(HTTPServerConfiguration.socketReceiveHeldBytes == 2 * 16_384 + 4_096)
        #expect(HTTPServerConfiguration.socketSendHeldBytes == 2 * 65_536 + 4_096)
        #expect(
            HTTPServerConfiguration.socketHeldBytes
                == HTTPServerConfiguration.socketReceiveHeldBytes + HTTPServerConfiguration.socketSendHeldBytes)
        #expect(ConnectionRecord.sendQueueHeldBytes(queuedBytes: 0) == 0)
        #expect(ConnectionRecord.sendQueueHeldBytes(queuedBytes: 300) == 4_696)
        #expect(
            ConnectionRecord.sendQueueHeldBytes(queuedBytes: 1 << 20) == HTTPServerConfiguration.socketSendHeldBytes)
    }
}
