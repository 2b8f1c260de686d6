/// Why a byte sequence is not an acceptable JSON document, and where.
package struct JSONParseError: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Not RFC 8259 JSON (unexpected byte, unterminated string, bad number, …).
        case syntax
        /// The bytes are not well-formed UTF-8 (RFC 3629).
        case invalidUTF8
        /// A `\uD800`–`\uDFFF` escape that is not half of a surrogate pair.
        case loneSurrogate
        /// Arrays and objects nested deeper than the parser's limit.
        case nestingTooDeep
        /// An object with two members of the same name.
        case duplicateName
    }

    package var kind: Kind
    /// Zero-based byte offset in the document where the problem was found.
    package var offset: Int
    /// What is wrong, in words, without quoting the document's content.
    package var message: String

    package init(_ kind: Kind, offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }
}
