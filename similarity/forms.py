from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from similarity.models import SimilarityDecision


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("结论"), choices=SimilarityDecision.Decision.choices, widget=forms.RadioSelect
    )
    note = forms.CharField(
        label=_("备注"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("“需约谈”和“上报”必填；只有教学人员能看到。"),
    )


class ArchiveImportForm(forms.Form):
    file = forms.FileField(label=_("指纹归档文件（JSON）"))


class ArchiveExportForm(forms.Form):
    term = forms.CharField(label=_("学期名称"), max_length=40, help_text=_("例如 2026-fall"))
