from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from flagreview.models import REASON_MAX_CHARS, RESPONSE_MAX_CHARS, FlagVerdict
from gradebook.forms import left_empty


class ResponseForm(forms.Form):
    text = forms.CharField(
        label=_("你的回应"),
        max_length=RESPONSE_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 6}),
    )

    def __init__(self, *args, by_staff: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Formatted per request: a lazy string formatted at import is frozen in one language.
        # A TA's flag may be about anything (copying, say), not only a suspiciously fast result.
        if by_staff:
            help_text = gettext("只能回应一次，最多 %(n)d 个字。针对助教写的原因说明你的情况。")
        else:
            help_text = gettext(
                "只能回应一次，最多 %(n)d 个字。说明你的实现为什么这么快，或者哪里可能出了问题。"
            )
        self.fields["text"].help_text = help_text % {"n": RESPONSE_MAX_CHARS}


class VerdictForm(forms.Form):
    decision = forms.ChoiceField(
        label=pgettext_lazy("flag verdict", "结论"),
        choices=FlagVerdict.Decision.choices,
        widget=forms.RadioSelect,
    )
    points = forms.DecimalField(
        label=_("恢复的分数"),
        required=False,
        min_value=Decimal("0"),
        max_digits=7,
        decimal_places=2,
        help_text=_("只在“恢复分数”时填写；已按这次结果的测试与计时算好建议分数。"),
    )
    reason = forms.CharField(
        label=_("理由（学生可见，记入成绩册审计记录）"),
        max_length=REASON_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def clean(self) -> dict:
        data = super().clean()
        # Only when the box was left empty: a value the field refused (-1, abc) has its own error.
        if data.get("decision") == FlagVerdict.Decision.RESTORE and left_empty(self["points"]):
            self.add_error("points", _("恢复分数需要填写分数。"))
        return data
