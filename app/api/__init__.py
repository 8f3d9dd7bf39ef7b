"""REST routers and their schemas: parse, authenticate, call a service, map errors."""
