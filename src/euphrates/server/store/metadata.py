"""The schema's one `MetaData`, on its own: the tables of models.py and of
season_tables.py both hang on it, and neither module imports the other's tables to
find it."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()
