import NotificationText
print(BodyRenderer.render("placeholder").body)
