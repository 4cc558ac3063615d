"""The receptor's REST API as a user reaches it from the host: HTTP Basic over the published port."""

import base64
import json
import urllib.error
import urllib.request

SIMULATED_TAG = "simulated"


class ApiError(Exception):
    pass


class Receptor:
    def __init__(self, url, user, password):
        self.url = url
        self._auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def call(self, method, path, body=None, timeout=10):
        """(status, parsed JSON body or None). Connection failures raise OSError."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", self._auth)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, _json(response.read())
        except urllib.error.HTTPError as e:
            return e.code, _json(e.read())

    def get(self, path, timeout=10):
        status, body = self.call("GET", path, timeout=timeout)
        if status != 200:
            raise ApiError(f"GET {path} answered {status}: {body}")
        return body

    def desire(self, lrp):
        return self.call("POST", "/v1/desired_lrps", lrp)[0]

    def scale(self, guid, instances):
        return self.call("PUT", f"/v1/desired_lrps/{guid}", {"instances": instances})[0]

    def restart(self, guid, index):
        return self.call("DELETE", f"/v1/actual_lrps/{guid}/index/{index}")[0]

    def delete(self, guid):
        return self.call("DELETE", f"/v1/desired_lrps/{guid}")[0]

    def actuals(self, guid=None, domain=None):
        if guid:
            return self.get(f"/v1/actual_lrps/{guid}")
        return self.get("/v1/actual_lrps" + (f"?domain={domain}" if domain else ""), timeout=60)

    def desired(self, domain=None):
        return self.get("/v1/desired_lrps" + (f"?domain={domain}" if domain else ""), timeout=60)

    def cells(self):
        return self.get("/v1/cells")


def web_server(guid, instances):
    """The README's walk-through LRP: Python's web server on the instance's host port (all interfaces: the rep's
    published port range reaches the container, not its loopback), routed as <guid>.drover.test by the router."""
    return {
        "process_guid": guid, "domain": "demo", "rootfs": "preloaded:host", "instances": instances,
        "memory_mb": 64, "disk_mb": 64, "ports": [8080],
        "routes": {"cf-router": [{"hostnames": [f"{guid}.drover.test"], "port": 8080}]},
        "action": {"run": {"path": "sh", "args": ["-c", 'exec python3 -m http.server --bind 0.0.0.0 "$PORT"']}},
    }


def simulated(guid, instances, domain):
    """An LRP only the simulated cells take (their required placement tag)."""
    return {
        "process_guid": guid, "domain": domain, "rootfs": "preloaded:host", "instances": instances,
        "memory_mb": 16, "disk_mb": 16, "placement_tags": [SIMULATED_TAG],
        "action": {"run": {"path": "sleep", "args": ["infinity"]}},
    }


def running(actuals):
    return [a for a in actuals if a["state"] == "RUNNING"]


def host_port(actual):
    return actual["ports"][0]["host_port"]


def _json(raw):
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")
