package io.drover.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium for the dashboard's browser tests. When {@code /usr/bin/chromium} or
 * {@code /usr/bin/chromedriver} is missing it runs {@code .ci/install-browser} (apt-get as root, under a lock); when
 * that cannot work either (not root, no package mirror) the calling test is skipped with one loud line, never failed.
 */
final class Chromium {

    static final Path BROWSER = Path.of(System.getProperty("drover.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("drover.chromedriver", "/usr/bin/chromedriver"));

    private Chromium() {
    }

    /** A headless browser of the given window size, or the calling test skipped when none can be had here. */
    static ChromeDriver start(int width, int height) {
        String missing = ensureInstalled();
        if (missing != null) {
            System.err.println("*** SKIPPED dashboard browser tests: " + missing + " ***");
            Assumptions.abort("no headless Chromium here: " + missing);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        // --no-sandbox: the tests may run as root (CI does), where Chromium's sandbox refuses to start.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=" + width + "," + height, "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().withTimeout(Duration.ofSeconds(60)).build();
        return new ChromeDriver(service, options);
    }

    /** Null when the browser and its driver are there (installing them if need be), else why not. */
    private static synchronized String ensureInstalled() {
        if (present()) {
            return null;
        }
        Path script = installScript();
        if (script == null) {
            return BROWSER + " or " + DRIVER + " missing, and no .ci/install-browser found to install them";
        }
        try {
            Path log = Files.createDirectories(Path.of("target")).resolve("install-browser.log");
            Process install = new ProcessBuilder(script.toString()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!install.waitFor(15, TimeUnit.MINUTES)) {
                install.destroyForcibly();
                return "apt-get install chromium chromium-driver did not finish in 15 minutes";
            }
            if (install.exitValue() == 0) {
                return present() ? null : BROWSER + " or " + DRIVER + " still missing after .ci/install-browser";
            }
            String text = Files.readString(log, StandardCharsets.UTF_8).strip();
            return text.substring(text.lastIndexOf('\n') + 1) + " (all of it in " + log.toAbsolutePath() + ")";
        } catch (IOException e) {
            return "could not run " + script + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while installing chromium";
        }
    }

    private static boolean present() {
        return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
    }

    /** {@code .ci/install-browser} of this checkout: the module's directory is the working directory of the test. */
    private static Path installScript() {
        for (File dir = new File("").getAbsoluteFile(); dir != null; dir = dir.getParentFile()) {
            Path script = dir.toPath().resolve(".ci/install-browser");
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        return null;
    }
}
