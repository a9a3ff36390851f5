"""The API's blueprints, one per resource; create_app registers those listed in BLUEPRINTS."""
