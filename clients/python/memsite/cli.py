"""`memsite`: Memory Site from a shell, with MEMSITE_URL and MEMSITE_KEY. `--json` prints the API's JSON as is.

    memsite add USER "text" [--session S] [--wait]
    memsite search USER "query" [--limit N]
    memsite context USER ["query"] [--budget N]
    memsite facts USER [--q WORDS]
    memsite correct USER FACT_ID "new text"
    memsite forget USER FACT_ID
    memsite export USER [--format json|csv]
    memsite portal-link USER [--ttl MINUTES]
    memsite erase USER --yes

Exit status: 0 done, 1 the API refused (its message on stderr), 2 a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from memsite.client import Client
from memsite.errors import MemsiteError
from memsite.types import Fact


def _options(*, defaults: bool) -> argparse.ArgumentParser:
    """The options every command takes, before or after its name (after it, they only override)."""
    options = argparse.ArgumentParser(add_help=False)
    default: dict[str, Any] = {} if defaults else {"default": argparse.SUPPRESS}
    options.add_argument("--json", action="store_true", help="print the API's JSON answer as is", **default)
    options.add_argument("--url", help="the server (default MEMSITE_URL, else http://127.0.0.1:8000)", **default)
    options.add_argument("--key", help="an API key (default MEMSITE_KEY)", **default)
    return options


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memsite", description="Memory Site from a shell.", parents=[_options(defaults=True)]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    after = _options(defaults=False)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, parents=[after])
        sub.add_argument("user", help="the user's id")
        return sub

    add = command("add", "store a user turn (extracted into facts)")
    add.add_argument("text")
    add.add_argument("--session", default="default")
    add.add_argument("--wait", action="store_true", help="extract before answering, and show the facts")
    search = command("search", "search the user's memory")
    search.add_argument("query")
    search.add_argument("--limit", type=int, default=5)
    context = command("context", "prompt-ready memory under a token budget")
    context.add_argument("query", nargs="?", default="")
    context.add_argument("--budget", type=int, default=2000)
    facts = command("facts", "list the user's facts (newest first)")
    facts.add_argument("--q", help="words the facts contain")
    correct = command("correct", "correct a fact's text")
    correct.add_argument("fact_id", type=int)
    correct.add_argument("text")
    forget = command("forget", "forget a fact")
    forget.add_argument("fact_id", type=int)
    export = command("export", "everything held about the user")
    export.add_argument("--format", choices=["json", "csv"], default="json")
    link = command("portal-link", "a link to the user's privacy portal")
    link.add_argument("--ttl", type=int, help="minutes the link is valid")
    erase = command("erase", "erase every trace of the user")
    erase.add_argument("--yes", action="store_true", help="confirm the erasure")
    return parser


def _fact_line(fact: Fact) -> str:
    action = f" ({fact.action})" if fact.action else ""
    return f"[{fact.id}] {fact.type:<11} {fact.text}{action}"


def _run(client: Client, args: argparse.Namespace) -> tuple[Any, list[str]]:
    """The answer's JSON (for --json) and the lines a person reads."""
    if args.command == "add":
        ingested = client.add(args.user, args.text, session_id=args.session, wait=args.wait)
        lines = [f"stored, job {ingested.job_id}"] + [_fact_line(f) for f in ingested.facts or []]
        return ingested.raw, lines
    if args.command == "search":
        result = client.search(args.user, args.query, limit=args.limit)
        lines = [f"[{h.id}] {h.score:.3f} {h.text}" for h in result.results] or ["nothing found"]
        return result.raw, lines
    if args.command == "context":
        ctx = client.context(args.user, args.query, token_budget=args.budget)
        return ctx.raw, [ctx.context, f"({ctx.tokens} tokens; the whole history: {ctx.full_history_tokens})"]
    if args.command == "facts":
        page = client.facts(args.user, q=args.q)
        return page.raw, [_fact_line(f) for f in page.results] or ["no facts"]
    if args.command == "correct":
        fact = client.correct(args.user, args.fact_id, text=args.text)
        return fact.raw, [_fact_line(fact)]
    if args.command == "forget":
        client.forget(args.user, args.fact_id)
        return {"forgotten": args.fact_id}, [f"forgot fact {args.fact_id}"]
    if args.command == "export":
        data = client.export(args.user, format=args.format)
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2)
        return data, [text.rstrip("\n")]
    if args.command == "portal-link":
        link = client.portal_link(args.user, ttl_minutes=args.ttl)
        return link.raw, [link.url]
    if not args.yes:
        raise SystemExit("memsite: erase needs --yes (it removes everything held about the user)")
    client.erase(args.user)
    return {"erased": args.user}, [f"erased {args.user}"]


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        with Client(base_url=args.url, api_key=args.key) as client:
            raw, lines = _run(client, args)
    except MemsiteError as exc:
        status = f" ({exc.status} {exc.code})" if exc.status else ""
        print(f"memsite: {exc.message}{status}", file=sys.stderr)
        return 1
    if args.json and not isinstance(raw, str):
        print(json.dumps(raw, ensure_ascii=False))
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
