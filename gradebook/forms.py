from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from gradebook.models import ITEM_KEY, Category, GradeItem, RegradeRequest
from gradebook.services import REGRADE_MESSAGE_MIN, REGRADE_MESSAGE_SHORT
from gradebook.templatetags.gradebook_tags import category_label
from pdcsite.formfields import column_decimal, plausible_moment
from pdcsite.uploads import csv_text

_DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class _ContentSelect(forms.Select):
    """Options whose label is Chinese course content (a quiz title) carry lang="zh-CN", as content
    does everywhere; an <option> cannot hold a marked-up span."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        from accounts.templatetags.ui_tags import content_lang

        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if content_lang(label):
            option["attrs"]["lang"] = content_lang(label)
        return option


class ItemChoiceField(forms.ModelChoiceField):
    """Labelled by GradeItem.__str__ (ModelChoiceField's default): the page's language."""

    widget = _ContentSelect


def left_empty(field: forms.BoundField) -> bool:
    """The box was left empty (blank or spaces), as the person sent it: a value the field refused
    is not empty, and has its own error already."""
    value = field.value()
    return value is None or str(value).strip() == ""


def _items() -> ItemChoiceField:
    return ItemChoiceField(queryset=GradeItem.objects.order_by("due_at", "key"), label=_("成绩项"))


class OverrideForm(forms.Form):
    item = _items()
    points = forms.DecimalField(label=_("分数"), min_value=Decimal(0), decimal_places=2)
    reason = forms.CharField(label=_("原因（学生可见）"), max_length=2000)


class OverrideClearForm(forms.Form):
    item = _items()
    reason = forms.CharField(label=_("原因"), max_length=2000)


class ExtensionForm(forms.Form):
    item = _items()
    due_at = forms.DateTimeField(
        label=_("新截止时间"),
        required=False,
        widget=_DATETIME_WIDGET,
        validators=[plausible_moment],
    )
    extra_days = forms.IntegerField(
        label=_("或延长天数"), required=False, min_value=1, max_value=365
    )
    reason = forms.CharField(label=_("原因"), max_length=2000, required=False)

    def clean(self) -> dict:
        data = super().clean()
        # As sent, not as cleaned: -3 extra days is refused by the field (1–365), and is not
        # "neither filled in"; both boxes filled is "both", even when one of them was refused.
        filled = [name for name in ("due_at", "extra_days") if not left_empty(self[name])]
        if len(filled) != 1:
            raise forms.ValidationError(_("请填写新截止时间或延长天数（二选一）。"))
        return data


class ExtensionRevokeForm(forms.Form):
    item = _items()


class ExcuseForm(forms.Form):
    item = _items()
    excused = forms.TypedChoiceField(
        label=_("操作"),
        choices=[("1", _("免做")), ("0", _("撤销免做"))],
        coerce=lambda v: v == "1",
    )
    reason = forms.CharField(label=_("原因"), max_length=2000)


class CurveForm(forms.Form):
    """An item's curve on its staff page. The value is read by services.curve_parse, which owns
    its bounds and says what is wrong with it; preview needs no reason, save and remove do."""

    kind = forms.ChoiceField(
        label=_("曲线方式"),
        choices=[c for c in GradeItem.CurveKind.choices if c[0]],
        required=False,
    )
    value = forms.CharField(
        label=_("分数或系数"), max_length=32, required=False, help_text=_("加分如 5；系数如 1.1")
    )
    reason = forms.CharField(
        label=_("原因"), max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    # What the page was loaded over (selectors.curve_version): the services refuse a save or
    # removal over a curve someone else has written since (CurveConflict).
    loaded = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    def over(self, version: str) -> CurveForm:
        """This form as typed, loaded over ``version``: once a refusal has shown the writer the
        curve in force, submitting again is their deliberate choice."""
        data = self.data.copy()
        data[self.add_prefix("loaded")] = version
        form = CurveForm(data, prefix=self.prefix)
        form.is_valid()
        return form


class RegradeRequestForm(forms.Form):
    # The service's rule (gradebook.services.regrade_request_create), said here at the box too.
    message = forms.CharField(
        label=_("请说明需要复核的内容"),
        min_length=REGRADE_MESSAGE_MIN,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 5}),
        error_messages={"min_length": REGRADE_MESSAGE_SHORT},
    )


class RegradeResolveForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("处理"),
        choices=[("accept", _("改分")), ("decline", _("驳回"))],
        widget=forms.RadioSelect,
    )
    points = forms.DecimalField(
        label=_("新分数"), required=False, min_value=Decimal(0), decimal_places=2
    )
    response = forms.CharField(
        label=_("答复（学生可见）"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def clean(self) -> dict:
        data = super().clean()
        # Only when the box was left empty: a value the field refused has its own error already.
        if data.get("decision") == "accept" and left_empty(self["points"]):
            self.add_error("points", _("改分需要填写新分数。"))
        return data


def category_choices(current: str = "") -> list[tuple[str, str]]:
    """The course's categories by name, for a field that files an item under one; `current`
    (an item's category that no longer has a row) stays choosable so that the item can be saved."""
    choices = [(c.key, category_label(c.key, c.title)) for c in Category.effective()]
    if current and current not in {key for key, _label in choices}:
        choices.append((current, category_label(current)))
    return choices


class GradeItemAdminForm(forms.ModelForm):
    """The admin's item form: the category is one of the course's, as on the import page."""

    category = forms.ChoiceField(label=_("类别"))

    class Meta:
        model = GradeItem
        # Every field, as the admin's default form has: the admin works out its field list
        # from this form's, and readonly_fields take "released" out again.
        fields = "__all__"  # noqa: DJ007

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = category_choices(self.instance.category)


class ImportForm(forms.Form):
    item = ItemChoiceField(
        queryset=GradeItem.objects.filter(kind__in=("exam", "other")).order_by("key"),
        label=_("已有成绩项"),
        required=False,
    )
    new_key = forms.CharField(
        label=_("或新建成绩项的标识"),
        max_length=64,
        validators=[ITEM_KEY],
        required=False,
        help_text=_("如 exam:final"),
    )
    new_title = forms.CharField(label=_("名称"), max_length=200, required=False)
    new_max_points = column_decimal(
        GradeItem, "max_points", label=_("满分"), required=False, min_value=Decimal("0.01")
    )
    # A choice of the course's categories, not free text: an item under a key no category has
    # (a typo, "Exam") would carry no weight in anyone's course total.
    new_category = forms.ChoiceField(label=_("类别"), required=False, initial="exam")
    file = forms.FileField(label=_("CSV 文件"))

    MAX_BYTES = 1024 * 1024  # 1 MiB: a roster-sized score file is a few KiB

    NEW_ITEM_FIELDS = ("new_key", "new_title", "new_max_points", "new_category")

    def __init__(self, *args, can_create: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_category"].choices = category_choices()
        if not can_create:
            # Only instructors create items: a TA was shown the fields, filled them in and got a
            # bare 403 page that lost the file and everything typed.
            for name in self.NEW_ITEM_FIELDS:
                del self.fields[name]
            self.fields["item"].required = True
            self.fields["item"].label = _("成绩项")

    def clean(self) -> dict:
        data = super().clean()
        if data.get("item") is None and "new_key" in self.fields:
            missing = [f for f in ("new_key", "new_title", "new_max_points") if not data.get(f)]
            if missing:
                raise forms.ValidationError(
                    _("请选择已有成绩项，或填写新成绩项的标识、名称和满分。")
                )
            if GradeItem.objects.filter(key=data["new_key"]).exists():
                self.add_error("new_key", _("该标识已存在，请从列表中选择。"))
        upload = data.get("file")
        if upload is not None and upload.size > self.MAX_BYTES:
            self.add_error("file", _("文件超过 1 MiB。"))
        return data

    def text(self) -> str:
        return csv_text(self.cleaned_data["file"].read())


class RegradeStatusFilter(forms.Form):
    status = forms.ChoiceField(
        choices=[("", _("全部")), *RegradeRequest.Status.choices], required=False
    )
