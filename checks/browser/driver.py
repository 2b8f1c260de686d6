"""One headless Chromium (Debian's chromium and chromedriver) driven by Selenium, with the
page's helpers the playground checks use: elements, answers, waits, pastes, viewports, screenshots."""

import base64
import json
import os
import shutil

# Selenium Manager must not look for drivers online: both paths are given below.
os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM_CANDIDATES = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]
WAIT_SECONDS = 10
DESKTOP = (1280, 900)
PHONE = (390, 844)


class Browser:
    """One headless Chromium; collects its performance (Network) and console logs."""

    def __init__(self, profile_dir):
        chromium = next((path for path in CHROMIUM_CANDIDATES if os.access(path, os.X_OK)), None)
        chromedriver = shutil.which("chromedriver")
        if chromium is None or chromedriver is None:
            raise RuntimeError("chromium or chromedriver is missing (make check-browser installs them)")
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in [
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
            f"--window-size={DESKTOP[0]},{DESKTOP[1]}", f"--user-data-dir={profile_dir}",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-default-apps",
            "--disable-features=Translate,OptimizationHints,MediaRouter",
            # Belt and braces: even a request the checks would catch cannot reach another host.
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        ]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
        self.driver.set_page_load_timeout(WAIT_SECONDS)
        self.network = []
        self.console = []

    def drain_logs(self):
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"].startswith("Network."):
                self.network.append(message)
        self.console.extend(self.driver.get_log("browser"))

    def requests(self):
        self.drain_logs()
        return [m["params"]["request"] | {"requestId": m["params"]["requestId"],
                                          "documentURL": m["params"].get("documentURL", "")}
                for m in self.network if m["method"] == "Network.requestWillBeSent"]

    def take_console(self):
        self.drain_logs()
        entries, self.console = self.console, []
        return entries

    # ---- the page

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.element(element_id).get_property("textContent")

    def answers(self, panel):
        return int(self.element(panel).get_attribute("data-answers") or "0")

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT_SECONDS, poll_frequency=0.05).until(lambda _: condition())
        except Exception:
            raise AssertionError(f"timed out after {WAIT_SECONDS} s waiting for {what}")

    def wait_for_answer(self, panel, before):
        self.wait(lambda: self.answers(panel) > before, f"a new answer in #{panel}")

    def paste(self, element_id, value):
        """Sets a field's value as a paste does and fires its input event."""
        self.driver.execute_script(
            "const field = document.getElementById(arguments[0]); field.value = arguments[1];"
            "field.dispatchEvent(new Event('input', {bubbles: true}));", element_id, value)

    def type_into(self, element_id, keys):
        field = self.element(element_id)
        field.clear()
        field.send_keys(keys)

    def emulate(self, size, mobile):
        """A viewport of exactly `size` CSS pixels (a phone's with `mobile`), through DevTools."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile})

    def screenshot(self, path, element=None):
        """The whole page at the current viewport's width (or one element of it), as a PNG."""
        x, y, width, height = self.driver.execute_script(
            "if (arguments[0]) { const box = arguments[0].getBoundingClientRect();"
            " return [box.left + scrollX, box.top + scrollY, box.width, box.height]; }"
            "return [0, 0, window.innerWidth, document.documentElement.scrollHeight]", element)
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": x, "y": y, "width": width, "height": height, "scale": 1}})
        path.write_bytes(base64.b64decode(shot["data"]))

    def quit(self):
        self.driver.quit()
