"""gunicorn's logger for `serve` and production: access lines with the user id hashed and no query values.

`gunicorn --logger-class memory_site.accesslog.QuietLogger`. The default access line holds the request line
(`GET /api/v1/users/alice/facts?q=peanut+allergy`), the referrer and, in custom formats, any header or
environment variable; here the paths go through `memory_site.logredact.redact` and headers are left out.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from memory_site.logredact import quiet_handler, redact


class QuietLogger(Logger):
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                quiet_handler(handler)

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        kept = {k: v for k, v in atoms.items() if not k.startswith("{")}  # no headers, no environment
        for key in ("r", "U", "f"):
            if isinstance(kept.get(key), str):
                kept[key] = redact(kept[key])
        if kept.get("q"):
            kept["q"] = redact("?" + str(kept["q"]))[1:]
        return kept
