package io.drover.receptor.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrossSiteWritesTest {

    private final CrossSiteWrites rule = new CrossSiteWrites(List.of("https://ops.example.com:8443"));

    @ParameterizedTest(name = "{0} Origin={1} Sec-Fetch-Site={2} to {3}://{4}: refused={5}")
    @CsvSource(nullValues = "-", value = {
            // reads are never refused
            "GET,     https://evil.example,        cross-site,  http, receptor:8888,  false",
            "HEAD,    https://evil.example,        cross-site,  http, receptor:8888,  false",
            "OPTIONS, https://evil.example,        cross-site,  http, receptor:8888,  false",
            // clients that are not browsers send neither header
            "POST,    -,                           -,           http, receptor:8888,  false",
            "DELETE,  -,                           -,           http, -,              false",
            // the receptor's own pages (the dashboard), spelled any way
            "POST,    http://receptor:8888,        same-origin, http, receptor:8888,  false",
            "PUT,     HTTP://Receptor:8888,        -,           http, receptor:8888,  false",
            "POST,    http://receptor,             -,           http, receptor:80,    false",
            "POST,    https://receptor:443,        -,           https, receptor,      false",
            // a configured CORS origin
            "PUT,     https://ops.example.com:8443, cross-site, http, receptor:8888,  false",
            // another site, another port, another scheme, an opaque origin, a browser's own word
            "POST,    https://evil.example,        cross-site,  http, receptor:8888,  true",
            "POST,    http://receptor:9999,        same-site,   http, receptor:8888,  true",
            "POST,    https://receptor:8888,       -,           http, receptor:8888,  true",
            "DELETE,  null,                        cross-site,  http, receptor:8888,  true",
            "POST,    http://receptor:8888,        -,           http, -,              true",
            "POST,    -,                           cross-site,  http, receptor:8888,  true",
            "PUT,     -,                           same-site,   http, receptor:8888,  true",
            "POST,    -,                           none,        http, receptor:8888,  false",
            "POST,    %%%,                         -,           http, receptor:8888,  true",
    })
    void decides(String method, String origin, String fetchSite, String scheme, String host, boolean refused) {
        assertThat(rule.refusal(method, origin, fetchSite, scheme, host) != null).isEqualTo(refused);
    }
}
