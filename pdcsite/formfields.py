"""Form fields shaped by the model column they fill, for every app's forms."""

from __future__ import annotations

from django import forms
from django.db import models


def column_decimal(model: type[models.Model], name: str, **options) -> forms.DecimalField:
    """A form field for a decimal column with the column's digits: a value the database cannot
    hold (say 40 nines) is then the form's error, not a server error when it is stored or read."""
    column = model._meta.get_field(name)
    return forms.DecimalField(
        max_digits=column.max_digits, decimal_places=column.decimal_places, **options
    )
