"""The verdict rules of harness results. A rule is the object in a results
document's "experiment.verdict" (from paper/experiments/*.json); its "kind"
names a function in RULES. A rule function receives the rule object and the
experiment's points (merged over every results file with that experiment id)
and returns one Verdict per candidate backend/device:

    holds / does not hold / not run

with a detail string holding the numbers that decided it. An unknown kind gives
"not evaluated (unknown rule kind X)". Adding a rule is one function in one of
the rule modules (importing them here registers their rules):

    @rule("my_kind")
    def my_kind(spec: dict, points: list[dict]) -> list[Verdict]:
        ...

Rules ignore skipped points (status "skipped", results format version 2): a
skipped point is neither a failure nor an error; a device where every matching
point was skipped is "not run".

Modules: verdict (Verdict and the helpers rules build one with), registry
(RULES, rule, evaluate), selection (how rules pick and pair points), and the
rules by kind: validity, speedup, best, phases, ceilings, trends, prediction,
counts, combinators. Points are read through scripts/results_doc.py.
"""

from .registry import RULES, evaluate, evaluate_documents, evaluate_experiment, rule
from .verdict import DOES_NOT_HOLD, HOLDS, NOT_RUN, Verdict
from . import best, ceilings, combinators, counts, phases, prediction, speedup, trends, validity  # noqa: E402,F401 (registers)

__all__ = ["DOES_NOT_HOLD", "HOLDS", "NOT_RUN", "RULES", "Verdict", "evaluate", "evaluate_documents",
           "evaluate_experiment", "rule"]
