package io.drover.receptor.validation;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Rules for string values the API takes: URIs, URLs and paths inside an instance's directory. */
public final class Values {

    private Values() {
    }

    /** A URI with a scheme and something after it ({@code preloaded:host}, {@code docker:///busybox}). */
    public static boolean isUriWithScheme(String s) {
        try {
            URI uri = new URI(s);
            return uri.getScheme() != null && uri.getSchemeSpecificPart() != null
                    && !uri.getSchemeSpecificPart().isEmpty();
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** An absolute http or https URL with a host (a completion callback). */
    public static boolean isHttpUrl(String s) {
        try {
            URI uri = new URI(s);
            String scheme = uri.getScheme();
            return ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && uri.getHost() != null
                    && !uri.getHost().isEmpty() && uri.getFragment() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** What a download may fetch: an http(s) URL, or a file URL with an absolute path on the cell. */
    public static boolean isDownloadUrl(String s) {
        if (isHttpUrl(s)) {
            return true;
        }
        try {
            URI uri = new URI(s);
            return "file".equalsIgnoreCase(uri.getScheme()) && uri.getPath() != null && uri.getPath().startsWith("/")
                    && (uri.getHost() == null || uri.getHost().isEmpty());
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /**
     * A relative path that stays inside the directory it is resolved against (no absolute path, no {@code ..} leading
     * out); {@code .} is the directory itself.
     */
    public static boolean isRelativePathInside(String s) {
        if (s.isEmpty() || s.indexOf('\0') >= 0) {
            return false;
        }
        try {
            Path path = Path.of(s);
            Path normalized = path.normalize();
            return !path.isAbsolute() && !s.startsWith("/") && !normalized.startsWith("..");
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** A file inside the directory (a result file): inside, and not the directory itself. */
    public static boolean isRelativeFileInside(String s) {
        return isRelativePathInside(s) && !Path.of(s).normalize().toString().isEmpty()
                && !Path.of(s).normalize().toString().equals(".");
    }
}
