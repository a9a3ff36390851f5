"""Request and response schemas: the single source of validation and of the OpenAPI document."""

from service.schemas.base import ProblemSchema, Schema

__all__ = ["ProblemSchema", "Schema"]
