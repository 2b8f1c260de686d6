// Where Apple's Intents framework can be imported (iOS, watchOS): the library
// makes a payload's `sender` and `conversation` (push.md P24) a communication
// notification. Not compiled on Linux; Apple's "Implementing communication
// notifications" is the reference.
#if canImport(Intents) && canImport(UserNotifications) && !os(macOS)
import Intents
import UserNotifications

@available(iOS 15.0, watchOS 8.0, *)
extension CommunicationSender {
    /// The sender as an `INPerson`, `image` its picture (the extension
    /// downloads `avatar`: an `INImage` of a remote URL is not loaded).
    public func person(image: INImage?) -> INPerson {
        INPerson(
            personHandle: INPersonHandle(value: id, type: .unknown), nameComponents: nil, displayName: name,
            image: image, contactIdentifier: nil, customIdentifier: id)
    }
}

@available(iOS 15.0, watchOS 8.0, *)
extension UNNotificationContent {
    /// This content as a communication notification: an incoming
    /// `INSendMessageIntent` from `sender` in `conversation` is donated,
    /// and the content updated from it (the system then shows the
    /// sender's picture and name). Call it from a notification service
    /// extension whose app declares `INSendMessageIntent` in
    /// `NSUserActivityTypes` and has the Communication Notifications capability.
    public func updatingAsMessage(
        from sender: CommunicationSender, in conversation: CommunicationConversation?, image: INImage? = nil
    ) throws -> UNNotificationContent {
        let groupName = conversation.flatMap { $0.isGroup ? $0.title : nil }
        let intent = INSendMessageIntent(
            recipients: nil, outgoingMessageType: .outgoingMessageText, content: body,
            speakableGroupName: groupName.map { INSpeakableString(spokenPhrase: $0) },
            conversationIdentifier: conversation?.id, serviceName: nil, sender: sender.person(image: image),
            attachments: nil)
        let interaction = INInteraction(intent: intent, response: nil)
        interaction.direction = .incoming
        interaction.donate(completion: nil)
        return try updating(from: intent)
    }
}
#endif
