import NotificationText
import Testing

/// The library's door to the relay's core: the service's bytes for `POST /relay`.
@Suite struct RelayAnswerTests {
    @Test func answerRelayRequest_isTheRoutesAnswer() {
        let record = #"{"recipient":"u1","settings":{"locale":"en","preview":"full"},"devices":[]}"#
        let answer = NotificationText.answer(
            relayRequest: Array(
                #"{"do":"gave-up","record":\#(record),"now":"2026-11-29T12:00:00Z","jitter":0}"#.utf8))
        #expect(answer.status == 200)
        #expect(answer.contentType == "application/json")
        #expect(
            String(decoding: answer.body, as: UTF8.self)
                == #"{"record":{"recipient":"u1","settings":{"locale":"en","preview":"full","maxAgeSeconds":600,"#
                + #""maxUnits":256},"displayed":[],"stamp":null,"refresh":false,"due":{"at":1795953600000,"#
                + #""attempt":1},"devices":[]},"wakeAt":1795953600000}"#)
    }

    @Test func answerRelayRequest_problem_isProblemJSON() {
        let answer = NotificationText.answer(relayRequest: Array(#"{"do":"nap"}"#.utf8))
        #expect(answer.status == 400)
        #expect(answer.contentType == "application/problem+json")
        #expect(String(decoding: answer.body, as: UTF8.self).contains(#""code":"invalid-value""#))
    }
}
