#!/usr/bin/env python3
"""Checks the deployment files against the service's operating promises.

Schema validation (kubernetes-validate), linting (hadolint) and unit parsing
(systemd-analyze) say whether each file is well formed; this script says
whether the files agree with each other and with how the service shuts down:
probes on the right paths, a grace period and stop timeout longer than the
drain, the hardening settings present, one port and one user id everywhere.

Usage: check_manifests.py REPO_ROOT [RENDERED_KUSTOMIZE_YAML]
       check_manifests.py --auth RENDERED_WITH_AUTH_YAML
The second form checks the with-auth example: the token file comes from a
Secret mounted read-only, /metrics has a port of its own that the scrape
annotations and the NetworkPolicy name, and the base's promises still hold.
Prints one line per failed promise and exits 1 if there is any.
"""

import pathlib
import re
import sys

import yaml

# The service's documented default drain (eventhttp's NOTIFICATION_TEXT_DRAIN_SECONDS).
DEFAULT_DRAIN_SECONDS = 10
RELAY_LABEL = ("app.kubernetes.io/name", "push-relay")
APP_LABEL = ("app.kubernetes.io/name", "notification-text")


class Findings:
    def __init__(self):
        self.failures = []

    def expect(self, condition, message):
        if not condition:
            self.failures.append(message)
        return condition


def load_documents(path):
    with open(path, encoding="utf-8") as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc]


def env_value(container, name):
    for item in container.get("env", []):
        if item.get("name") == name:
            return item.get("value")
    return None


def parse_seconds(text):
    """systemd/Kubernetes-style durations this repo uses: '30', '30s', '1min'."""
    match = re.fullmatch(r"\s*(\d+)\s*(s|sec|min)?\s*", str(text))
    if not match:
        return None
    value = int(match.group(1))
    return value * 60 if match.group(2) == "min" else value


def check_kustomization(root, findings):
    folder = root / "deploy/kubernetes"
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text(encoding="utf-8"))
    listed = set(kustomization.get("resources", []))
    present = {p.name for p in folder.glob("*.yaml") if p.name != "kustomization.yaml"}
    findings.expect(listed == present,
                    f"kustomization.yaml resources {sorted(listed)} differ from the files {sorted(present)}")


def check_kubernetes(resources, findings):
    by_kind = {}
    for doc in resources:
        by_kind.setdefault(doc["kind"], []).append(doc)
    for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "NetworkPolicy"):
        findings.expect(len(by_kind.get(kind, [])) == 1, f"expected exactly one {kind}")
    if findings.failures:
        return

    deployment = by_kind["Deployment"][0]
    pod = deployment["spec"]["template"]["spec"]
    template_labels = deployment["spec"]["template"]["metadata"]["labels"]
    findings.expect(template_labels.get(APP_LABEL[0]) == APP_LABEL[1], "pod template lacks the app label")
    findings.expect(deployment["spec"].get("replicas", 2) >= 2, "Deployment replicas below 2")
    findings.expect(pod.get("enableServiceLinks") is False,
                    "enableServiceLinks must be false (the Service would inject NOTIFICATION_TEXT_PORT)")
    findings.expect(pod.get("automountServiceAccountToken") is False, "the pod needs no API token")

    pod_security = pod.get("securityContext", {})
    findings.expect(pod_security.get("runAsNonRoot") is True, "runAsNonRoot must be true")
    findings.expect(pod_security.get("seccompProfile", {}).get("type") == "RuntimeDefault",
                    "seccompProfile must be RuntimeDefault")

    containers = pod["containers"]
    findings.expect(len(containers) == 1, "one container per pod")
    container = containers[0]
    security = container.get("securityContext", {})
    findings.expect(security.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem must be true")
    findings.expect(security.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation must be false")
    findings.expect(security.get("capabilities", {}).get("drop") == ["ALL"], "capabilities must drop ALL")
    findings.expect(not security.get("capabilities", {}).get("add"), "no capabilities may be added")

    resources = container.get("resources", {})
    for section in ("requests", "limits"):
        for name in ("cpu", "memory"):
            findings.expect(name in resources.get(section, {}), f"resources.{section}.{name} missing")

    ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
    findings.expect("http" in ports, "container port named http missing")
    port_env = env_value(container, "NOTIFICATION_TEXT_PORT")
    findings.expect(port_env is not None and int(port_env) == ports.get("http"),
                    "NOTIFICATION_TEXT_PORT must equal the http containerPort")

    readiness = container.get("readinessProbe", {}).get("httpGet", {})
    liveness = container.get("livenessProbe", {}).get("httpGet", {})
    findings.expect(readiness.get("path") == "/readyz", "readinessProbe must GET /readyz")
    findings.expect(liveness.get("path") == "/healthz", "livenessProbe must GET /healthz")
    findings.expect(readiness.get("port") == "http" and liveness.get("port") == "http",
                    "probes must use the http port")

    drain_env = env_value(container, "NOTIFICATION_TEXT_DRAIN_SECONDS")
    drain_seconds = int(drain_env) if drain_env is not None else DEFAULT_DRAIN_SECONDS
    delay_env = env_value(container, "NOTIFICATION_TEXT_SHUTDOWN_DELAY_SECONDS")
    delay_seconds = float(delay_env) if delay_env is not None else 0
    pre_stop = container.get("lifecycle", {}).get("preStop", {})
    pre_stop_seconds = 0
    if "sleep" in pre_stop:
        pre_stop_seconds = int(pre_stop["sleep"]["seconds"])
    elif "exec" in pre_stop:
        command = pre_stop["exec"]["command"]
        if len(command) == 2 and command[0].endswith("sleep"):
            pre_stop_seconds = int(command[1])
    grace_seconds = pod.get("terminationGracePeriodSeconds", 30)
    findings.expect(grace_seconds > pre_stop_seconds + delay_seconds + drain_seconds,
                    f"terminationGracePeriodSeconds {grace_seconds} must exceed preStop {pre_stop_seconds}"
                    f" + shutdown delay {delay_seconds:g} + drain {drain_seconds} seconds")

    service = by_kind["Service"][0]
    findings.expect(service["spec"]["selector"] == {APP_LABEL[0]: APP_LABEL[1]},
                    "Service must select the app label only")
    findings.expect(all(p.get("targetPort") in ("http", ports.get("http")) for p in service["spec"]["ports"]),
                    "Service targetPort must be the container's http port")

    hpa = by_kind["HorizontalPodAutoscaler"][0]
    findings.expect(hpa["apiVersion"] == "autoscaling/v2", "HPA must be autoscaling/v2")
    findings.expect(hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"],
                    "HPA must target the Deployment")
    findings.expect(hpa["spec"].get("minReplicas", 1) >= 2, "HPA minReplicas must be at least 2")
    findings.expect(any(m.get("type") == "Resource" and m["resource"]["name"] == "cpu"
                        for m in hpa["spec"].get("metrics", [])), "HPA must scale on CPU")

    pdb = by_kind["PodDisruptionBudget"][0]
    findings.expect(pdb["spec"]["selector"]["matchLabels"].items() <= template_labels.items(),
                    "PDB selector must match the pod template")

    policy = by_kind["NetworkPolicy"][0]
    findings.expect(policy["spec"]["podSelector"]["matchLabels"].items() <= template_labels.items(),
                    "NetworkPolicy must select the pods")
    findings.expect(policy["spec"].get("policyTypes") == ["Ingress"], "NetworkPolicy restricts ingress")
    peers = [peer for rule in policy["spec"].get("ingress", []) for peer in rule.get("from", [])]
    findings.expect(any(peer.get("podSelector", {}).get("matchLabels", {}).get(RELAY_LABEL[0]) == RELAY_LABEL[1]
                        for peer in peers), "NetworkPolicy must admit the push relay's pods")
    findings.expect(all(peer.get("podSelector") or peer.get("namespaceSelector") for peer in peers)
                    and all("ipBlock" not in peer for peer in peers),
                    "NetworkPolicy peers must be selectors, never open ranges")
    return {"uid": pod_security.get("runAsUser"), "port": ports.get("http")}


def check_auth(resources, findings):
    """The with-auth example: tokens from a Secret, metrics on their own port."""
    deployment = next((doc for doc in resources if doc["kind"] == "Deployment"), None)
    policy = next((doc for doc in resources if doc["kind"] == "NetworkPolicy"), None)
    if not findings.expect(deployment is not None and policy is not None, "expected a Deployment and a NetworkPolicy"):
        return
    template = deployment["spec"]["template"]
    pod = template["spec"]
    container = pod["containers"][0]
    token_file = env_value(container, "NOTIFICATION_TEXT_AUTH_TOKEN_FILE")
    if not findings.expect(token_file is not None, "NOTIFICATION_TEXT_AUTH_TOKEN_FILE is not set"):
        return
    mounts = [m for m in container.get("volumeMounts", []) if token_file.startswith(m["mountPath"].rstrip("/") + "/")]
    if not findings.expect(len(mounts) == 1, f"no single volume is mounted over {token_file}"):
        return
    mount = mounts[0]
    findings.expect(mount.get("readOnly") is True, "the token volume must be mounted readOnly")
    volume = next((v for v in pod.get("volumes", []) if v["name"] == mount["name"]), {})
    secret = volume.get("secret")
    if findings.expect(secret is not None, "the token file must come from a Secret volume"):
        mode = secret.get("defaultMode", 0o644)
        findings.expect(mode & 0o007 == 0, f"the Secret's defaultMode {oct(mode)} lets others read the tokens")
        relative = token_file[len(mount["mountPath"].rstrip("/")) + 1:]
        paths = [item["path"] for item in secret.get("items", [])]
        findings.expect(not paths or relative in paths, f"the Secret's items do not provide {relative}")
        if mode & 0o004 == 0:
            findings.expect(pod.get("securityContext", {}).get("fsGroup") == pod.get("securityContext", {}).get(
                "runAsGroup"), "without world read, fsGroup must be the service's group")
    ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
    metrics_port = env_value(container, "NOTIFICATION_TEXT_METRICS_PORT")
    findings.expect(metrics_port is not None and int(metrics_port) == ports.get("metrics"),
                    "NOTIFICATION_TEXT_METRICS_PORT must equal the container port named metrics")
    findings.expect(env_value(container, "NOTIFICATION_TEXT_METRICS_HOST") == "0.0.0.0",
                    "the metrics listener must bind 0.0.0.0 to be scraped")
    annotations = template["metadata"].get("annotations", {})
    findings.expect(annotations.get("prometheus.io/port") == str(metrics_port),
                    "prometheus.io/port must name the metrics port")
    scraper_ports = [port.get("port") for rule in policy["spec"].get("ingress", [])
                     if any("namespaceSelector" in peer for peer in rule.get("from", []))
                     for port in rule.get("ports", [])]
    findings.expect("metrics" in scraper_ports or ports.get("metrics") in scraper_ports,
                    "the NetworkPolicy must let the scraper reach the metrics port")


def parse_unit(path):
    """Key → list of values; systemd allows repeated keys."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        values.setdefault(key.strip(), []).append(value.strip())
    return values


def check_systemd(root, findings):
    unit = parse_unit(root / "deploy/systemd/notification-text.service")
    last = {key: values[-1] for key, values in unit.items()}
    required = {
        "DynamicUser": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "NoNewPrivileges": "yes",
        "PrivateTmp": "yes", "KillSignal": "SIGTERM", "CapabilityBoundingSet": "",
    }
    for key, value in required.items():
        findings.expect(last.get(key) == value, f"unit needs {key}={value}")
    for key in ("RestrictAddressFamilies", "SystemCallFilter", "MemoryMax", "Restart", "EnvironmentFile"):
        findings.expect(key in unit, f"unit needs {key}=")
    findings.expect(last.get("ExecStart", "").split()[:2] == ["/usr/local/bin/notification-text", "serve"],
                    "unit must start /usr/local/bin/notification-text serve")
    environment = dict(item.split("=", 1) for item in unit.get("Environment", []))
    drain_seconds = int(environment.get("NOTIFICATION_TEXT_DRAIN_SECONDS", DEFAULT_DRAIN_SECONDS))
    delay_seconds = float(environment.get("NOTIFICATION_TEXT_SHUTDOWN_DELAY_SECONDS", 0))
    stop_seconds = parse_seconds(last.get("TimeoutStopSec", "90s"))
    findings.expect(stop_seconds is not None and stop_seconds > delay_seconds + drain_seconds,
                    f"TimeoutStopSec {last.get('TimeoutStopSec')} must exceed the shutdown delay of"
                    f" {delay_seconds:g} s plus the drain of {drain_seconds} s")


def dockerfile_instructions(path):
    """(INSTRUCTION, arguments) pairs with continuation lines joined."""
    instructions, pending = [], ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        line = pending + stripped
        pending = ""
        keyword, _, rest = line.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    return instructions


def check_dockerfile(root, findings, pod_facts):
    instructions = dockerfile_instructions(root / "deploy/Dockerfile")
    stages = [args for keyword, args in instructions if keyword == "FROM"]
    findings.expect(len(stages) >= 2, "Dockerfile must be multi-stage")
    findings.expect(bool(stages) and re.match(r"swift:6\.\d+(\.\d+)?-bookworm\b", stages[0]) is not None,
                    "build stage must use a pinned swift:6.x-bookworm image")
    findings.expect(bool(stages) and stages[-1].split()[0] == "debian:bookworm-slim",
                    "runtime stage must be debian:bookworm-slim")
    last_stage = instructions[max(i for i, (k, _) in enumerate(instructions) if k == "FROM"):]
    users = [args for keyword, args in last_stage if keyword == "USER"]
    findings.expect(len(users) == 1 and re.fullmatch(r"[1-9]\d*(:\d+)?", users[0]) is not None,
                    "runtime stage must switch to one numeric non-root USER")
    if users and pod_facts and pod_facts.get("uid") is not None:
        findings.expect(users[0].split(":")[0] == str(pod_facts["uid"]),
                        "Dockerfile USER must equal the pod's runAsUser")
    healthchecks = [args for keyword, args in last_stage if keyword == "HEALTHCHECK"]
    probe_script = (root / "deploy/healthcheck.sh").read_text(encoding="utf-8")
    findings.expect(len(healthchecks) == 1 and "notification-text-healthcheck" in healthchecks[0]
                    and 'path="${2:-/healthz}"' in probe_script,
                    "runtime stage needs a HEALTHCHECK running deploy/healthcheck.sh, which probes /healthz")
    exposed = [args for keyword, args in last_stage if keyword == "EXPOSE"]
    if pod_facts:
        findings.expect(exposed == [str(pod_facts["port"])], "EXPOSE must equal the pod's http port")
    envs = " ".join(args for keyword, args in last_stage if keyword == "ENV")
    findings.expect("NOTIFICATION_TEXT_HOST=0.0.0.0" in envs, "the image must bind 0.0.0.0")
    labels = " ".join(args for keyword, args in last_stage if keyword == "LABEL")
    for label in ("org.opencontainers.image.source", "org.opencontainers.image.version"):
        findings.expect(label in labels, f"missing OCI label {label}")


def main(argv):
    findings = Findings()
    if len(argv) == 3 and argv[1] == "--auth":
        resources = load_documents(argv[2])
        check_kubernetes(resources, findings)
        check_auth(resources, findings)
        for failure in findings.failures:
            print(f"FAIL {failure}")
        return 1 if findings.failures else 0
    root = pathlib.Path(argv[1]).resolve()
    check_kustomization(root, findings)
    if len(argv) > 2:
        resources = load_documents(argv[2])
    else:
        resources = [doc for path in sorted((root / "deploy/kubernetes").glob("*.yaml"))
                     if path.name != "kustomization.yaml" for doc in load_documents(path)]
    pod_facts = check_kubernetes(resources, findings)
    check_systemd(root, findings)
    check_dockerfile(root, findings, pod_facts)
    for failure in findings.failures:
        print(f"FAIL {failure}")
    return 1 if findings.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
