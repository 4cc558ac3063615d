package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless Chromium against the real local cluster (two process cells): log in with the
 * API's credentials (and reach the content from the keyboard), watch instances desired through the API turn RUNNING
 * without a reload, scale from the page, see a crash appear, restart an instance, follow its log, and keep a
 * screenshot of every page in {@code target/dashboard-screenshots}. The tests share one cluster and one browser and
 * run in order, as a user would.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {

    static final Path SHOTS = Path.of("target", "dashboard-screenshots");
    private static final Duration PATIENCE = Duration.ofSeconds(45);

    @TempDir
    static Path dataDir;
    @TempDir
    static Path scratch;

    private ChromeDriver browser;
    private LocalCluster cluster;
    private Api api;
    private String base;
    private String guid;
    private Path crashFile;

    @BeforeAll
    void start() throws IOException {
        browser = Chromium.start(1280, 900); // first: a machine without a browser skips before starting a cluster
        Map<String, String> settings = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        settings.put("drover.autoscaler.interval", "2s");
        ClusterUnderTest started = ClusterUnderTest.start(new LocalClusterSettings(dataDir, true, 0, 2, 0, "ui",
                "ui-secret", settings));
        cluster = started.cluster();
        api = started.api();
        base = cluster.receptorUrl();
        guid = "web-" + Long.toHexString(System.nanoTime());
        crashFile = scratch.resolve("crash-one");
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void logsInWithTheApiCredentialsAndSeesTheCells() {
        URI url = URI.create(base);
        browser.get(url.getScheme() + "://ui:ui-secret@" + url.getAuthority() + "/ui");
        waitFor(b -> text(By.id("tile-cells")).equals("2"));
        waitFor(b -> text(By.id("live-status")).startsWith("Live"));

        browser.findElement(By.tagName("body")).sendKeys(Keys.TAB); // the keyboard's first stop skips to the content
        WebElement first = browser.switchTo().activeElement();
        assertThat(first.getText()).isEqualTo("Skip to content");
        assertThat(first.getLocation().getX()).as("shown once focused").isNotNegative();
    }

    @Test
    @Order(2)
    void instancesDesiredThroughTheApiTurnRunningWithoutAReload() {
        browser.get(base + "/ui/lrps?search=" + guid);
        waitFor(b -> text(By.id("live-status")).startsWith("Live"));
        markPage();
        assertThat(api.desire(Api.lrp(guid, 2, 32, "preloaded:host", "sh", "-c", script()))).isEqualTo(201);
        waitFor(b -> text(By.cssSelector("tr[data-guid='" + guid + "'] td.running")).equals("2"));
        assertPageNotReloaded();

        browser.get(base + "/ui/lrps/" + guid);
        waitFor(b -> rows("RUNNING") == 2);
    }

    @Test
    @Order(3)
    void scalesFromThePageAfterConfirming() {
        waitFor(b -> text(By.id("live-status")).startsWith("Live"));
        markPage();
        WebElement instances = browser.findElement(By.id("scale-instances"));
        instances.clear();
        instances.sendKeys("3");
        browser.findElement(By.id("scale-button")).click();
        new WebDriverWait(browser, PATIENCE).until(ExpectedConditions.alertIsPresent()).accept();
        waitFor(b -> rows("RUNNING") == 3);
        assertThat(text(By.id("action-outcome"))).contains("Scaled " + guid + " to 3");
        assertThat(api.desiredInstances()).containsEntry(guid, 3);
        assertPageNotReloaded();
    }

    @Test
    @Order(4)
    void aCrashAppearsOnThePage() throws IOException {
        markPage();
        Files.createFile(crashFile); // exactly one instance removes it and exits 3
        waitFor(b -> browser.findElements(By.cssSelector("#instances td.crash-count")).stream()
                .anyMatch(td -> td.getText().equals("1")));
        assertThat(text(By.id("instances"))).contains("exited with status 3");
        assertPageNotReloaded();
    }

    @Test
    @Order(5)
    void restartsAnInstanceFromThePage() {
        markPage();
        // The crash before may have been index 0's: it is restarted at once, but its row shows no instance until then.
        waitFor(b -> "RUNNING".equals(attribute(0, "data-state")) && attribute(0, "data-instance") != null);
        String before = attribute(0, "data-instance");
        assertThat(before).isNotBlank();
        waitFor(b -> {
            b.findElement(By.id("restart-0")).click(); // the row may be redrawn between finding and clicking: again
            return true;
        });
        new WebDriverWait(browser, PATIENCE).until(ExpectedConditions.alertIsPresent()).accept();
        waitFor(b -> !before.equals(attribute(0, "data-instance")) && "RUNNING".equals(attribute(0, "data-state")));
        assertPageNotReloaded();
    }

    @Test
    @Order(6)
    void followsTheLogOfAnInstance() {
        browser.findElement(By.id("log-follow")).click();
        waitFor(b -> text(By.id("log-lines")).contains("hello from 0"));
        browser.findElement(By.id("log-stop")).click();
    }

    @Test
    @Order(7)
    void everyPageIsDrawnAndKeptAsAScreenshot() throws IOException {
        for (String page : List.of("overview:/ui", "cells:/ui/cells", "lrps:/ui/lrps", "lrp:/ui/lrps/" + guid,
                "tasks:/ui/tasks")) {
            String[] nameAndPath = page.split(":", 2);
            browser.get(base + nameAndPath[1]);
            waitFor(b -> text(By.id("live-status")).startsWith("Live"));
            shoot(nameAndPath[0]);
        }
        browser.get(base + "/ui/events");
        waitFor(b -> text(By.id("live-status")).startsWith("Live"));
        String changes = "#feed li[data-type='desired_lrp_changed'][data-guid='" + guid + "']";
        waitFor(b -> !browser.findElements(By.cssSelector(changes)).isEmpty()); // the page starts with the last 100
        int before = browser.findElements(By.cssSelector(changes)).size();
        assertThat(api.scale(guid, 2)).isEqualTo(204);
        waitFor(b -> browser.findElements(By.cssSelector(changes)).size() == before + 1);
        shoot("events");

        browser.manage().window().setSize(new Dimension(390, 844));
        browser.get(base + "/ui/lrps/" + guid);
        waitFor(b -> rows("RUNNING") == 2);
        assertThat((Boolean) browser.executeScript(
                "return document.documentElement.scrollWidth <= window.innerWidth"))
                .as("nothing wider than a phone's screen but the scrollable tables").isTrue();
        shoot("lrp-phone");
    }

    /** SPEC 17: the LRP page of an autoscaled LRP draws the autoscaler's samples as they come, without a reload. */
    @Test
    @Order(8)
    void anAutoscaledLrpsChartFillsInWithoutAReload() throws IOException {
        browser.get(base + "/ui/lrps/" + guid);
        waitFor(b -> text(By.id("live-status")).startsWith("Live"));
        markPage();
        assertThat(api.call("PUT", "/v1/desired_lrps/" + guid, "{\"autoscaling\": {\"min_instances\": 2, "
                + "\"max_instances\": 3, \"target_cpu_percent\": 50, \"scale_down_delay\": 600}}").statusCode())
                .isEqualTo(204);
        waitFor(b -> text(By.id("autoscaling-policy")).startsWith("2–3 instances at cpu 50%"));
        waitFor(b -> !browser.findElements(By.cssSelector("#usage-chart polyline.instances")).isEmpty());
        waitFor(b -> text(By.id("autoscaling-status")).startsWith("Wants 2"));
        assertPageNotReloaded();
        assertThat((Boolean) browser.executeScript(
                "return document.documentElement.scrollWidth <= window.innerWidth"))
                .as("the chart scales down to a phone's screen").isTrue();
        shoot("lrp-autoscaled-phone");
        browser.manage().window().setSize(new Dimension(1280, 900));
        shoot("lrp-autoscaled");
    }

    /** Each instance prints a line, then waits; the one that removes the crash file first exits 3. */
    private String script() {
        return "echo \"hello from $INSTANCE_INDEX\"; while true; do if rm \"" + crashFile + "\" 2>/dev/null; then "
                + "echo crashing; exit 3; fi; sleep 0.5; done";
    }

    private void shoot(String name) throws IOException {
        Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** A mark that only this page load carries: gone if the page reloaded. */
    private void markPage() {
        browser.executeScript("window.droverTestMark = 'not reloaded'");
    }

    private void assertPageNotReloaded() {
        assertThat(browser.executeScript("return window.droverTestMark")).isEqualTo("not reloaded");
    }

    private int rows(String state) {
        return browser.findElements(By.cssSelector("#instances tr[data-state='" + state + "']")).size();
    }

    /** An attribute of an instance's row, read in one step (the live part may be redrawn at any moment). */
    private String attribute(int index, String name) {
        return (String) browser.executeScript("var row = document.querySelector(\"#instances tr[data-index='\" + "
                + "arguments[0] + \"']\"); return row ? row.getAttribute(arguments[1]) : null;", index, name);
    }

    private String text(By by) {
        List<WebElement> found = browser.findElements(by);
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    private void waitFor(Function<WebDriver, Boolean> condition) {
        new WebDriverWait(browser, PATIENCE).ignoring(StaleElementReferenceException.class).until(condition);
    }
}
