import Testing

@testable import NotificationEngine

/// `Composer.compose` with `ComposeRequest.catalog` set through the Swift API,
/// as an app links the library (the fixture covers the texts of every catalog).
@Suite struct ComposerLocaleTests {
    let now = Timestamp(rfc3339: "2026-11-29T12:00:00Z")!

    func likes(_ count: Int) -> [PendingNotification] {
        (0..<count).map { PendingNotification(id: "l\($0)", type: "like", timestamp: now) }
    }

    func catalog(_ locale: String) throws -> Catalog {
        try #require(CatalogSet.builtIn.catalog(forLocale: locale))
    }

    @Test func compose_withoutCatalog_writesEnglish_andSaysEn() {
        let response = Composer.compose(ComposeRequest(notifications: likes(2), now: now))
        #expect(response.locale == "en")
        #expect(response.notification.title == "New activity on Buzz")
    }

    @Test func compose_inRussian_choosesThePluralBranchOfTheCount() throws {
        let ru = try catalog("ru-RU")
        for (count, body) in [(21, "21 новое уведомление"), (11, "11 новых уведомлений"), (3, "3 новых уведомления")] {
            let response = Composer.compose(ComposeRequest(notifications: likes(count), now: now, catalog: ru))
            #expect(response.locale == "ru")
            #expect(response.notification.body == body, "\(count)")
            #expect(response.notification.title == "Новые события в Buzz")
        }
    }

    @Test func compose_inHebrew_isolatesALatinApp_butNotTheFallbackTitle() throws {
        let request = ComposeRequest(now: now, app: "Wiki", fetch: .failed, catalog: try catalog("iw"))
        let response = Composer.compose(request)
        #expect(response.locale == "he")
        #expect(response.notification.title == "Wiki")
        #expect(
            response.notification.body.unicodeScalars.elementsEqual(
                "ייתכן שיש פעילות חדשה ב־\u{2068}Wiki\u{2069}.".unicodeScalars))
    }

    @Test func requests_withDifferentCatalogs_areNotEqual() throws {
        let en = ComposeRequest(notifications: likes(2), now: now)
        var de = en
        de.catalog = try catalog("de")
        #expect(en != de)
        de.catalog = try catalog("en-GB")
        #expect(en == de)
    }

    /// A request whose `notifications` are set after `init` keeps its catalog.
    @Test func settingNotifications_keepsTheCatalog() throws {
        var request = ComposeRequest(now: now, catalog: try catalog("ja"))
        request.notifications = likes(3)
        let response = Composer.compose(request)
        #expect(response.locale == "ja")
        #expect(response.notification.body == "3件の新しい通知")
    }
}
