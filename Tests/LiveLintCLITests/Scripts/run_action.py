#!/usr/bin/env python3
"""Runs the shell steps of a composite GitHub Action (action.yml) locally, the way the runner
would, for tests: inputs from --input NAME=VALUE (defaults from action.yml), `${{ … }}`
expressions for inputs, github.action_path, runner.os and earlier steps' outputs, `if:`
conditions (always(), success(), ==, !=, &&), $GITHUB_OUTPUT / $GITHUB_STEP_SUMMARY files, and
step failure skipping later steps. `uses:` steps are not run: they are listed with their
resolved `with:` (a test checks what they would have been given). Prints one JSON object."""
import argparse
import json
import os
import re
import subprocess
import sys

import yaml

ap = argparse.ArgumentParser()
ap.add_argument("action")
ap.add_argument("--input", action="append", default=[])
ap.add_argument("--workspace", required=True)
ap.add_argument("--runner-temp", required=True, help="RUNNER_TEMP; the caller owns and removes it")
a = ap.parse_args()

action = yaml.safe_load(open(a.action))
inputs = {k: str(v.get("default", "")) for k, v in (action.get("inputs") or {}).items()}
for item in a.input:
    k, _, v = item.partition("=")
    if k not in inputs:
        sys.exit(f"unknown input {k}")
    inputs[k] = v
tmp = a.runner_temp
os.makedirs(tmp, exist_ok=True)
summary = os.path.join(tmp, "step-summary.md")
open(summary, "w").close()
context = {"github.action_path": os.path.dirname(os.path.abspath(a.action)), "runner.os": "Linux"}
outputs = {}
failed = False
report = {"steps": [], "uses": []}


def value(expr):
    expr = expr.strip()
    m = re.fullmatch(r"'([^']*)'", expr)
    if m:
        return m.group(1)
    m = re.fullmatch(r"inputs\.([A-Za-z0-9_-]+)", expr)
    if m:
        return inputs[m.group(1)]
    m = re.fullmatch(r"steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)", expr)
    if m:
        return outputs.get(m.group(1), {}).get(m.group(2), "")
    if expr in context:
        return context[expr]
    raise SystemExit(f"unsupported expression: {expr}")


def substitute(text):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: value(m.group(1)), str(text))


def condition(expr):
    """always()/success() and comparisons joined by &&; success() is implied without a status function."""
    if expr is None:
        return not failed
    expr = str(expr).strip()
    if expr.startswith("${{") and expr.endswith("}}"):
        expr = expr[3:-2]
    status_given = False
    result = True
    for part in expr.split("&&"):
        part = part.strip()
        if part == "always()":
            status_given = True
            continue
        if part == "success()":
            status_given = True
            result = result and not failed
            continue
        m = re.fullmatch(r"(.+?)\s*(==|!=)\s*(.+)", part)
        if not m:
            raise SystemExit(f"unsupported condition: {part}")
        left, op, right = value(m.group(1)), m.group(2), value(m.group(3))
        result = result and ((left == right) if op == "==" else (left != right))
    if not status_given:
        result = result and not failed
    return result


for step in action["runs"]["steps"]:
    name = step.get("name", step.get("id", "?"))
    if not condition(step.get("if")):
        report["steps"].append({"name": name, "skipped": True})
        continue
    if "uses" in step:
        report["uses"].append({"name": name, "uses": step["uses"],
                               "with": {k: substitute(v) for k, v in (step.get("with") or {}).items()}})
        continue
    assert step.get("shell") == "bash", f"{name}: composite steps need shell: bash"
    out_file = os.path.join(tmp, f"output-{len(report['steps'])}")
    open(out_file, "w").close()
    env = dict(os.environ)
    env.update({k: substitute(v) for k, v in (step.get("env") or {}).items()})
    env.update({"GITHUB_OUTPUT": out_file, "GITHUB_STEP_SUMMARY": summary, "GITHUB_ACTION_PATH": context["github.action_path"],
                "GITHUB_WORKSPACE": a.workspace, "RUNNER_TEMP": tmp, "RUNNER_OS": "Linux"})
    script = substitute(step["run"])
    p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=a.workspace, env=env,
                       capture_output=True, text=True)
    got = {}
    for line in open(out_file):
        k, _, v = line.rstrip("\n").partition("=")
        if k:
            got[k] = v
    if step.get("id"):
        outputs[step["id"]] = got
    report["steps"].append({"name": name, "status": p.returncode, "stdout": p.stdout[-4000:], "stderr": p.stderr[-4000:],
                            "outputs": got})
    if p.returncode != 0:
        failed = True

report["summary"] = open(summary).read()
report["outputs"] = {k: substitute(v["value"]) for k, v in (action.get("outputs") or {}).items()}
report["failed"] = failed
print(json.dumps(report))
