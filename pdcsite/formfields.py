"""Form fields shaped by the model column they fill, for every app's forms."""

from __future__ import annotations

from datetime import datetime

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from pdcsite.params import query_id


def column_decimal(model: type[models.Model], name: str, **options) -> forms.DecimalField:
    """A form field for a decimal column with the column's digits: a value the database cannot
    hold (say 40 nines) is then the form's error, not a server error when it is stored or read."""
    column = model._meta.get_field(name)
    return forms.DecimalField(
        max_digits=column.max_digits, decimal_places=column.decimal_places, **options
    )


class RowsField(forms.ModelMultipleChoiceField):
    """Rows picked by id (ticked checkboxes). An id that is not one a key column can hold ("²",
    10**20) is the field's "not a valid value" error before any query: SQLite raises
    OverflowError for a number past 64 bits, which ModelMultipleChoiceField does not catch."""

    def clean(self, value):
        for raw in value or []:
            if query_id(str(raw)) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": raw},
                )
        return super().clean(value)


# A course's dates (openings, deadlines, extensions) fall in these years. A date-time input takes
# any year; 0001-01-01 00:00 in Asia/Shanghai is before year 1 in UTC, and saving it raised
# OverflowError (a 500 on the quiz settings form, an audit).
MOMENT_YEARS = (2000, 2100)


def plausible_moment(value: datetime | None) -> None:
    """A validator for a typed date-time: a year a course could be in (MOMENT_YEARS)."""
    if value is not None and not MOMENT_YEARS[0] <= value.year <= MOMENT_YEARS[1]:
        raise ValidationError(
            _("请填写 %(first)d 年到 %(last)d 年之间的时间。"),
            params={"first": MOMENT_YEARS[0], "last": MOMENT_YEARS[1]},
        )
