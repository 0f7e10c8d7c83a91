"""Swagger UI at `/docs`, served from the `swagger-ui-py` package's files: nothing is fetched at run time.

FastAPI's own page loads Swagger UI from a CDN, which a gateway without internet (or a developer
offline) cannot reach; this page and its three assets come from this process only. The page
reads `/openapi.json` and sends requests with the token typed into "Authorize".
"""

from __future__ import annotations

from pathlib import Path

import swagger_ui
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Route

from services.gateway.edge.http import error_response

ASSETS = Path(swagger_ui.__file__).resolve().parent / "static"
# Only what the page uses; the package also ships an editor we do not serve.
_SERVED = {
    "swagger-ui.css": "text/css",
    "swagger-ui-bundle.js": "text/javascript",
    "favicon-32x32.png": "image/png",
}

_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="icon" type="image/png" href="{base}/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="{base}/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{base}/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({{
      url: "{base}{openapi_url}",
      dom_id: "#swagger-ui",
      deepLinking: true,
      persistAuthorization: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis],
      layout: "BaseLayout"
    }});
  </script>
</body>
</html>
"""


def docs_routes(title: str, openapi_url: str = "/openapi.json") -> list[Route]:
    async def page(request: Request) -> Response:
        base = request.scope.get("root_path", "").rstrip("/")
        return HTMLResponse(_PAGE.format(title=title, base=base, openapi_url=openapi_url))

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        media_type = _SERVED.get(name)
        if media_type is None or not (ASSETS / name).is_file():
            return error_response(404, "not_found", f"no asset {name!r}")
        return FileResponse(ASSETS / name, media_type=media_type, headers={"cache-control": "public, max-age=86400"})

    return [
        Route("/docs", page, methods=["GET"], include_in_schema=False),
        Route("/docs/assets/{name}", asset, methods=["GET"], include_in_schema=False),
    ]
