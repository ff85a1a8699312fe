"""Forms of the staff quiz pages (validation of shape; the rules live on the model, quizzes.models,
and in quizzes.authoring)."""

from __future__ import annotations

from collections.abc import Collection
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.language import LanguageMarkedModelForm, mark_field_languages
from pdcsite.formfields import RowsField, column_decimal, plausible_moment
from pdcsite.params import MAX_ID
from quizzes.authoring import QuestionInvalid, RuleSpec, question_check
from quizzes.bank import ANCHOR_RE, ID_RE
from quizzes.models import LECTURE_MAX, LECTURE_MIN, Question, Quiz, QuizQuestion, QuizRule
from quizzes.selectors import flat_late_percent, late_terms, quiz_late_item

_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
_BLANK = [("", _("全部"))]


def section_field(*, required: bool) -> forms.RegexField:
    """A section anchor, and what one looks like when it is not one (the rule form said only
    "输入一个有效的值。")."""
    return forms.RegexField(
        label=_("章节锚点"),
        regex=ANCHOR_RE,
        required=required,
        help_text=_("如 sec-5-3"),
        error_messages={"invalid": _("章节锚点形如 sec-5-3（第 5.3 节）。")},
    )


class QuestionFilterForm(forms.Form):
    """Which bank questions: the bank page filters by these, and a drawing rule draws by them."""

    lecture = forms.IntegerField(
        label=_("讲次"), required=False, min_value=LECTURE_MIN, max_value=LECTURE_MAX
    )
    section = section_field(required=False)
    qtype = forms.ChoiceField(
        label=_("题型"), choices=_BLANK + Question.Type.choices, required=False
    )
    tag = forms.ChoiceField(
        label=_("考查层次"), choices=_BLANK + Question.Tag.choices, required=False
    )


class BankFilterForm(QuestionFilterForm):
    seed = forms.IntegerField(
        label=_("样例种子"), required=False, min_value=0, help_text=_("参数化题目按此种子抽一组数")
    )


class QuizLatePenaltyForm(LanguageMarkedModelForm):
    """A quiz's settings form (the staff editor's, the admin's) whose "迟交扣分" is the gradebook
    item's policy once the item exists: the field shows it, and saving a new value writes it there
    (`quiz_settings_apply`). A policy the one percent cannot say (per day, grace days) shows as
    words, and the field is read-only: it is changed in the gradebook."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields.get("late_penalty_percent")
        if field is None or self.instance.pk is None:
            return
        item = quiz_late_item(self.instance)
        percent = flat_late_percent(item)
        if percent is not None:
            self.initial["late_penalty_percent"] = percent
            if item.pk:
                field.help_text = _(
                    "即成绩册中本测验成绩项的迟交政策：迟交任意天数扣此百分比；在此或在成绩册中修改均可"
                )
            return
        field.disabled = True
        field.help_text = _("成绩册中的迟交政策：%(terms)s。请在成绩册中修改。") % {
            "terms": late_terms(item)
        }


class QuizSettingsForm(QuizLatePenaltyForm):
    class Meta:
        model = Quiz
        fields = (
            "title",
            "title_en",
            "slug",
            "lecture",
            "description",
            "description_en",
            "opens_at",
            "closes_at",
            "late_until",
            "late_penalty_percent",
            "time_limit_minutes",
            "max_attempts",
            "grading_method",
            "grade_max_points",
            "shuffle_questions",
            "shuffle_choices",
        )
        widgets = {"opens_at": _DATETIME, "closes_at": _DATETIME, "late_until": _DATETIME}

    # Typed to the minute (datetime-local): a stored time with seconds (a script's, the admin's)
    # whose minute comes back is kept and is no change. Else a save that changed nothing moved
    # the close time back by its seconds and rescored every student's grade (an audit).
    MINUTE_FIELDS = ("opens_at", "closes_at", "late_until")

    def _same_minute(self, name: str) -> bool:
        before = self.initial.get(name)
        after = getattr(self, "cleaned_data", {}).get(name)
        if before is None or after is None:
            return False
        return before.replace(second=0, microsecond=0) == after.replace(second=0, microsecond=0)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in self.MINUTE_FIELDS:
            self.fields[name].validators.append(plausible_moment)

    def clean(self) -> dict:
        data = super().clean()
        for name in self.MINUTE_FIELDS:
            if self._same_minute(name):
                data[name] = self.initial[name]
        return data

    @property
    def changed_data(self) -> list[str]:
        changed = super().changed_data
        return [n for n in changed if not (n in self.MINUTE_FIELDS and self._same_minute(n))]


POINTS_MIN = Decimal("0.01")  # points, not a fraction: the smallest a question can be worth


class PickForm(forms.Form):
    questions = RowsField(
        queryset=Question.objects.all(), error_messages={"required": _("请至少选择一道题。")}
    )
    points = column_decimal(
        QuizQuestion, "points", label=_("每题分值"), required=False, min_value=POINTS_MIN
    )


class PointsForm(forms.Form):
    question = forms.IntegerField(label=_("题目"), min_value=1, max_value=MAX_ID)
    points = column_decimal(
        QuizQuestion, "points", label=_("分值"), required=False, min_value=POINTS_MIN
    )


class RuleForm(QuestionFilterForm):
    count = forms.IntegerField(label=_("抽题数"), min_value=1, max_value=50)
    points = column_decimal(
        QuizRule, "points", label=_("每题分值"), min_value=POINTS_MIN, initial=Decimal("1")
    )

    field_order = ("count", "lecture", "section", "qtype", "tag", "points")

    def __init__(self, *args, **kwargs) -> None:
        # The quiz editor shows it beside the settings form, which has a `lecture` field too.
        kwargs.setdefault("auto_id", "id_rule_%s")
        super().__init__(*args, **kwargs)

    def spec(self) -> RuleSpec:
        """The valid form as the rule it asks for: its fields are RuleSpec's, by name, and empty
        optional fields clean to RuleSpec's defaults (None, "")."""
        return RuleSpec(**self.cleaned_data)


class PreviewForm(forms.Form):
    seed = forms.IntegerField(label=_("种子"), min_value=0, required=False, initial=1)


_AUTHOR_TYPES = [c for c in Question.Type.choices if c[0] != "param"]


class QuestionForm(forms.Form):
    bank_id = forms.RegexField(
        label=_("题目编号"), regex=ID_RE, help_text=_("小写字母、数字与连字符，如 l5-s01")
    )
    lecture = forms.IntegerField(label=_("讲次"), min_value=LECTURE_MIN, max_value=LECTURE_MAX)
    section = section_field(required=True)
    qtype = forms.ChoiceField(label=_("题型"), choices=_AUTHOR_TYPES)
    tag = forms.ChoiceField(label=_("考查层次"), choices=Question.Tag.choices)
    stem = forms.CharField(label=_("题干"), widget=forms.Textarea(attrs={"rows": 3}))
    stem_en = forms.CharField(
        label=_("题干（英文）"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("英文可以不写；写了英文，题干、解析和每个选项都要有英文。"),
    )
    choices = forms.CharField(
        label=_("选项（每行一个，正确项以 * 开头）"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    choices_en = forms.CharField(
        label=_("选项（英文，每行一个，与中文选项同序）"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    answer = forms.CharField(
        label=_("答案（判断题填 true / false；数值题填数字）"), required=False, max_length=64
    )
    abs_tol = column_decimal(
        Question, "abs_tol", label=_("允许误差（绝对值）"), required=False, min_value=0
    )
    unit = forms.CharField(label=_("单位"), required=False, max_length=32)
    unit_en = forms.CharField(label=_("单位（英文）"), required=False, max_length=32)
    explanation = forms.CharField(
        label=_("解析（须注明章节，如 §5.3）"), widget=forms.Textarea(attrs={"rows": 3})
    )
    explanation_en = forms.CharField(
        label=_("解析（英文，同样注明章节）"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    points = column_decimal(
        Question, "points", label=_("分值"), min_value=POINTS_MIN, initial=Decimal("1")
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        mark_field_languages(self.fields)

    def clean(self) -> dict:
        """The bank's checks too, on every field the form accepted: all that is wrong with the
        question is said in one save, each at its field (not the first the bank met, and not
        only once the form's own fields were right)."""
        data = super().clean()
        refused = set(self.errors)  # said by the form's fields: not said again by the bank
        try:
            question_check(lecture=data.get("lecture") or LECTURE_MIN, data=data)
        except QuestionInvalid as exc:
            self.add_problems(exc, refused)
        return data

    def add_problems(self, exc: QuestionInvalid, refused: Collection[str] = ()) -> None:
        """Each problem at its field (a problem of the whole question above the form)."""
        for field, message in exc.problems:
            name = field if field in self.fields else None
            if name not in refused:
                self.add_error(name, message)
