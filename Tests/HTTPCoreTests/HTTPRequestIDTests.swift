import HTTPCore
import Testing

@Suite struct HTTPRequestIDTests {
    @Test func inlineBytes_areTheFourWordsInMemoryOrder() {
        let words: (UInt64, UInt64, UInt64, UInt64) = (
            0x3736_3534_3332_3130, 0x6665_6463_6261_3938, 0x3736_3534_3332_3130, 0x6665_6463_6261_3938
        )
        let id = HTTPRequestID(inlineBytes: words)
        #expect(id.text == "0123456789abcdef0123456789abcdef")
        #expect(id.utf8Count == 32)
        #expect(id.bytes == Array("0123456789abcdef0123456789abcdef".utf8))
    }

    @Test func ownText_isKeptAsItCame_andEqualsAnInlineIdOfTheSameBytes() {
        let own = HTTPRequestID("0123456789abcdef0123456789abcdef")
        let inline = HTTPRequestID(
            inlineBytes: (
                0x3736_3534_3332_3130, 0x6665_6463_6261_3938, 0x3736_3534_3332_3130, 0x6665_6463_6261_3938
            ))
        #expect(own == inline)
        #expect(HTTPRequestID("r-1").text == "r-1")
        #expect(HTTPRequestID("r-1").utf8Count == 3)
        #expect(HTTPRequestID("r-1") != HTTPRequestID("r-2"))
    }
}
