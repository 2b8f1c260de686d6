"""CLDR's plural rules for scripts/gen-l10n-tables.py, specialized for the
non-negative integer counts the catalogs format: each rule folded to the
operands an integer has, evaluated in Python, and written as Swift conditions.
"""
import re

import babel
from babel import Locale
from babel.localedata import locale_identifiers

from l10n_tables_common import HEADER, cldr_versions, data_file, hex_rows, pack, parse_cldr


def fold(node):
    """The rule's AST for an integer count n: i = n, v = w = f = t = c = e = 0.

    Returns True, False or an AST over n only."""
    kind, body = node
    if kind in ("and", "or"):
        left, right = fold(body[0]), fold(body[1])
        if kind == "and":
            if left is False or right is False:
                return False
            if left is True:
                return right
            return left if right is True else ("and", (left, right))
        if left is True or right is True:
            return True
        if left is False:
            return right
        return left if right is False else ("or", (left, right))
    if kind == "not":
        inner = fold(body[0])
        return (not inner) if isinstance(inner, bool) else ("not", (inner,))
    if kind == "relation":
        method, expression, range_list = body
        assert method in ("in", "within"), method  # the same for integers
        ranges = [(low[1][0], high[1][0]) for low, high in range_list[1]]
        operand = operand_of(expression)
        if isinstance(operand, int):
            return any(low <= operand <= high for low, high in ranges)
        return ("relation", (operand, ranges))
    raise ValueError(f"unknown plural rule node {kind}")


def operand_of(expression):
    kind, body = expression
    if kind in ("n", "i"):
        return "n"
    if kind in ("v", "w", "f", "t", "c", "e"):
        return 0
    if kind == "mod":
        inner, (_, (modulus,)) = body
        operand = operand_of(inner)
        return operand % modulus if isinstance(operand, int) else f"{operand} % {modulus}"
    raise ValueError(f"unknown plural operand {kind}")


def evaluate(node, n):
    if isinstance(node, bool):
        return node
    kind, body = node
    if kind == "and":
        return evaluate(body[0], n) and evaluate(body[1], n)
    if kind == "or":
        return evaluate(body[0], n) or evaluate(body[1], n)
    if kind == "not":
        return not evaluate(body[0], n)
    operand, ranges = body
    value = n if operand == "n" else n % int(operand.split(" % ")[1])
    return any(low <= value <= high for low, high in ranges)


def swift_condition(node, parent=None):
    kind, body = node
    if kind in ("and", "or"):
        operator = " && " if kind == "and" else " || "
        text = swift_condition(body[0], kind) + operator + swift_condition(body[1], kind)
        return f"({text})" if parent is not None and parent != kind else text
    if kind == "not":
        inner = body[0]
        if inner[0] == "relation" and len(inner[1][1]) == 1:
            operand, [(low, high)] = inner[1]
            return f"{operand} != {low}" if low == high else f"!({low}...{high}).contains({operand})"
        return "!(" + swift_condition(inner, "not") + ")"
    operand, ranges = body
    parts = [f"{operand} == {low}" if low == high else f"({low}...{high}).contains({operand})" for low, high in ranges]
    text = " || ".join(parts)
    return f"({text})" if len(parts) > 1 and parent is not None and parent != "or" else text


def plural_rule_sets():
    """Distinct rule sets of every babel locale, and which locale uses which."""
    sets, by_id = [], {}
    for identifier in sorted(locale_identifiers()):
        rule = Locale.parse(identifier).plural_form
        abstract = tuple((tag, repr(ast)) for tag, ast in rule.abstract)
        if abstract not in [s[0] for s in sets]:
            sets.append((abstract, rule))
        by_id[identifier] = [s[0] for s in sets].index(abstract)
    return sets, by_id


def plural_rules():
    sets, by_id = plural_rule_sets()
    functions, conditions_of = [], []
    for index, (_, rule) in enumerate(sets):
        users = sorted({i.split("_")[0] for i, s in by_id.items() if s == index})
        folded = [(tag, fold(ast)) for tag, ast in rule.abstract]
        conditions_of.append(folded)
        lines = []
        # babel tries the categories in this order; CLDR's are disjoint anyway.
        for tag, condition in folded:
            if condition is False:
                continue
            if condition is True:
                lines.append(f"            return .{tag}")
                break
            lines.append(f"            if {swift_condition(condition)} {{ return .{tag} }}")
        else:
            lines.append("            return .other")
        name = ", ".join(users[:6]) + (f" and {len(users) - 6} more" if len(users) > 6 else "")
        functions.append(f"        case {index}:  // {name}\n" + "\n".join(lines))
    # The specialized rules give what babel gives, for counts a request can
    # hold and well beyond (the `many` of 1000000 in fr, es, it, pt).
    for index, (_, rule) in enumerate(sets):
        for n in list(range(0, 2001)) + [10_000, 100_000, 1_000_000, 2_000_000, 10_000_000]:
            expected = rule(n)
            got = next((tag for tag, c in conditions_of[index] if evaluate(c, n)), "other")
            assert expected == got, f"rule set {index}, {n}: babel {expected}, specialized {got}"

    # Languages by the rules of their language-only locale; then every other
    # locale whose rules differ from its language's.
    languages, exceptions = {}, {}
    for identifier, index in by_id.items():
        if re.fullmatch("[a-z]{2,3}", identifier):
            languages[pack(identifier, None, None) >> 31] = index
    for identifier, index in by_id.items():
        language = identifier.split("_")[0]
        if not re.fullmatch("[a-z]{2,3}", language):
            continue  # root: no catalog tag can name it
        if languages.get(pack(language, None, None) >> 31) != index:
            try:
                exceptions[pack(*parse_cldr(identifier))] = index
            except AssertionError:
                continue  # variants such as ca_ES_VALENCIA: no catalog tag can name one
    language_rows = sorted(k << 8 | v for k, v in languages.items())
    exception_keys = sorted(exceptions)
    switch = "\n".join(functions)
    by_language = {i: index for i, index in by_id.items() if re.fullmatch("[a-z]{2,3}", i)}
    by_exception = {}
    for identifier, index in by_id.items():
        language = identifier.split("_")[0]
        if re.fullmatch("[a-z]{2,3}", language) and by_language.get(language) != index:
            try:
                parse_cldr(identifier)
            except AssertionError:
                continue
            by_exception[identifier] = index
    exported = data_file(
        f"CLDR's plural rules, as babel {babel.__version__} has them (babel.Locale.parse(tag).plural_form):"
        f" {len(sets)} distinct rule sets over {len(by_id)} locales. `ruleSets[i]` maps each category but `other`"
        " to its condition in CLDR's rule syntax (babel's spelling; `other` is what no condition matches); a count"
        " of compose is a non-negative integer n, so i = n and v = w = f = t = c = e = 0. The rules of a catalog"
        " tag (docs/spec/compose.md section 12.2) are `exceptions[tag]` when the tag, written with `_`, is there,"
        " else `languages[its language]`.",
        cldr_versions(), "ruleSets", [dict(sorted(rule.rules.items())) for _, rule in sets])
    exported["languages"] = dict(sorted(by_language.items()))
    exported["exceptions"] = dict(sorted(by_exception.items()))
    return exported, (HEADER.format(source="babel " + babel.__version__ + "'s plural rules") + f"""
/// CLDR's plural rules (`babel.Locale.parse(tag).plural_form`) for
/// non-negative integer counts, where the operands i = n and v = w = f = t =
/// c = e = 0: {len(sets)} distinct rule sets over {len(by_id)} locales.
enum CLDRPluralRules {{
    /// The category of `n` under rule set `ruleSet`.
    static func category(of n: Int, ruleSet: UInt8) -> PluralCategory {{
        switch ruleSet {{
{switch}
        default:
            return .other
        }}
    }}

    /// Language-only locales: `LocaleTag` language bits << 8 | rule set, sorted.
    static let languages: [UInt32] = [
{hex_rows(language_rows, 6)}
    ]

    /// Locales whose rules differ from their language's, packed as
    /// `LocaleTag` packs them (sorted); `exceptionRuleSets[i]` is that of `exceptionKeys[i]`.
    static let exceptionKeys: [UInt64] = [
{hex_rows(exception_keys, 12)}
    ]

    static let exceptionRuleSets: [UInt8] = [
{hex_rows([exceptions[k] for k in exception_keys], 2)}
    ]
}}
""")
