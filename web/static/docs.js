// /docs: Swagger UI on this server's OpenAPI document (a file of its own: the page's
// Content-Security-Policy allows no inline script).
"use strict";
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
