"""The rule registry: rule kind (the "kind" of a spec's "verdict") -> rule
function, filled by the @rule decorator of each rule module, and evaluating a
spec through it."""

from __future__ import annotations

from typing import Callable

from results_doc import Experiment, device_key, device_type, group_by_device, merge_experiments

from .verdict import Verdict, verdict_for

RuleFn = Callable[[dict, list], list]  # (rule spec, points) -> [Verdict]
RULES: dict[str, RuleFn] = {}


def rule(kind: str):
    """Register a rule function under `kind`."""
    def register(fn: RuleFn) -> RuleFn:
        RULES[kind] = fn
        return fn
    return register


def evaluate(experiment_id: str, spec: dict | None, points: list[dict]) -> list[Verdict]:
    """Verdicts of one experiment (its machine-readable rule `spec`)."""
    kind = spec.get("kind") if isinstance(spec, dict) else None
    if kind is None:
        text = "not evaluated (no machine-readable rule)"
        fn = None
    elif kind not in RULES:
        text = f"not evaluated (unknown rule kind {kind})"
        fn = None
    else:
        fn = RULES[kind]
        text = ""
    if fn is None:
        keys = list(group_by_device(points)) or [None]
        verdicts = [verdict_for(k, text, "") for k in keys]
    else:
        try:
            verdicts = fn(spec, points)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            keys = list(group_by_device(points)) or [None]
            verdicts = [verdict_for(k, f"not evaluated (bad {kind} rule: {e})", "") for k in keys]
    for v in verdicts:
        v.experiment = experiment_id
        v.rule = kind
    return verdicts


CPU_DEVICE_NOTE = ("the device is a CPU (an OpenCL CPU platform such as PoCL): this checks the code "
                   "path and the rule, not a claim about GPUs")


def evaluate_experiment(exp: Experiment) -> list[Verdict]:
    """Verdicts of a merged experiment (its spec's "verdict"). A verdict on a
    kernel backend's device that is a CPU (PoCL) carries a note saying so."""
    verdicts = evaluate(exp.id, exp.spec.get("verdict"), exp.points)
    for v in verdicts:
        if v.backend in (None, "cpu"):
            continue
        key = (v.backend, v.device_index, v.device)
        if any(device_key(p) == key and device_type(p) == "cpu" for p in exp.points):
            v.note = CPU_DEVICE_NOTE
    return verdicts


def evaluate_documents(docs: list[dict]) -> list[Verdict]:
    """Verdicts of every experiment in the documents, in first-seen order."""
    out = []
    for exp in merge_experiments(docs):
        out.extend(evaluate_experiment(exp))
    return out
