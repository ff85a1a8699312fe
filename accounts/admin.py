from axes import admin as axes_admin
from axes.models import AccessAttempt
from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, Permission
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from accounts.access import is_staff_member
from accounts.models import ApiToken, Profile
from accounts.roles import ROLES, group_label, group_labels
from pdcsite.params import query_id


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("student_id", "display_name", "section", "user")
    search_fields = ("student_id", "display_name", "user__email")
    list_filter = ("section",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "label", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("user", "key_hash", "label", "created_at", "last_used_at")
    search_fields = ("user__username",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A token is made on its owner's profile page, the one place its value is shown; the add
        # form here had every field but `revoked_at` read-only, so each save was a 500 (no user).
        return False


# django-axes' attempt list, with its two computed columns named in the page's language (the
# package leaves them to Django, which prints the method names "Status" and "Expiration").
admin.site.unregister(AccessAttempt)


@admin.register(AccessAttempt)
class AccessAttemptAdmin(axes_admin.AccessAttemptAdmin):
    @admin.display(description=_("状态"))
    def status(self, obj: AccessAttempt) -> str:
        return super().status(obj)

    @admin.display(description=_("过期时间"))
    def expiration(self, obj: AccessAttempt):
        return super().expiration(obj)


# Django stores each permission's name once, in English ("Can add 讲义": its action words and our
# Chinese model name), so the permission pickers named them half in each language. They are named
# here from the model instead: the app's and model's names and the action, in the page's language.
_DEFAULT_ACTIONS = {
    "add": _("可以添加%(model)s"),
    "change": _("可以修改%(model)s"),
    "delete": _("可以删除%(model)s"),
    "view": _("可以查看%(model)s"),
}


def permission_label(perm: Permission) -> str:
    """'应用 | 可以添加讲义' / 'Lectures | Can add lecture'; the stored name for a model gone."""
    model = perm.content_type.model_class()
    if model is None:
        return perm.name
    opts = model._meta
    action, _sep, model_name = perm.codename.partition("_")
    if model_name == opts.model_name and action in _DEFAULT_ACTIONS:
        text = str(_DEFAULT_ACTIONS[action]) % {"model": _mid_sentence(str(opts.verbose_name))}
    else:
        text = str(dict(opts.permissions).get(perm.codename, perm.name))
    app = opts.app_config.verbose_name
    return pgettext("an app and a permission", "%(app)s | %(permission)s") % {
        "app": app,
        "permission": text,
    }


def _mid_sentence(name: str) -> str:
    """'Excusal' -> 'excusal' inside "Can add …"; 'API token' and 'TA's verdict' stay as they are."""
    return name[0].lower() + name[1:] if name[:2].istitle() else name


def _named_permissions(field, db_field) -> None:
    if db_field.name in ("permissions", "user_permissions") and field is not None:
        field.label_from_instance = permission_label


# The role groups are stored under their codes ("instructor"), which role_of and roles_sync look
# them up by; the admin names every group by group_label instead: the role's label.
def _is_role_group(group: Group | None) -> bool:
    return group is not None and group.name in ROLES


admin.site.unregister(Group)


@admin.register(Group)
class RoleGroupAdmin(GroupAdmin):
    """Groups by their labels. A role group's name stays out of its form (renaming it would take
    the role from its users) and the group cannot be deleted here."""

    list_display = ("shown_name",)

    @admin.display(description=Group._meta.get_field("name").verbose_name, ordering="name")
    def shown_name(self, obj: Group) -> str:
        return group_label(obj.name)

    @admin.display(description=_("角色"))
    def role(self, obj: Group) -> str:
        return group_label(obj.name)

    def action_checkbox(self, obj: Group) -> str:
        # Django's checkbox, whose label for screen readers names the row by str(group).
        label = format_html(gettext("Select this object for an action - {}"), group_label(obj.name))
        checkbox = forms.CheckboxInput(
            {"class": "action-select", "aria-label": label}, lambda v: False
        )
        return checkbox.render(helpers.ACTION_CHECKBOX_NAME, str(obj.pk))

    def formfield_for_manytomany(self, db_field, request: HttpRequest, **kwargs):
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        _named_permissions(field, db_field)
        return field

    def get_fields(self, request: HttpRequest, obj: Group | None = None):
        if _is_role_group(obj):
            return ["role", "permissions"]
        return super().get_fields(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Group | None = None):
        readonly = super().get_readonly_fields(request, obj)
        return (*readonly, "role") if _is_role_group(obj) else readonly

    def has_delete_permission(self, request: HttpRequest, obj: Group | None = None) -> bool:
        return not _is_role_group(obj) and super().has_delete_permission(request, obj)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:  # the heading and the breadcrumbs (admin/auth/group/change_form.html)
            context["subtitle"] = context["group_label"] = group_label(obj.name)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def history_view(self, request: HttpRequest, object_id: str, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if obj is not None:
            label = group_label(obj.name)
            title = gettext("Change history: %s") % label  # Django's own msgid and translation
            extra_context = {"title": title, "group_label": label, **(extra_context or {})}
        return super().history_view(request, object_id, extra_context)


class GroupLabelFilter(admin.RelatedFieldListFilter):
    """The user list's filter by group, naming the groups by group_label."""

    def field_choices(self, field, request, model_admin):
        choices = super().field_choices(field, request, model_admin)  # (pk, str(group) == name)
        return [(pk, group_label(name)) for pk, name in choices]


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class RoleLabelUserAdmin(UserAdmin):
    """Users with their groups named by group_label: the groups picker, the list's filter, and the
    groups row of a user that the viewer may only view."""

    list_filter = tuple(
        ("groups", GroupLabelFilter) if name == "groups" else name for name in UserAdmin.list_filter
    )

    def formfield_for_manytomany(self, db_field, request: HttpRequest, **kwargs):
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        if db_field.name == "groups" and field is not None:
            field.label_from_instance = lambda group: group_label(group.name)
        _named_permissions(field, db_field)
        return field

    def get_fieldsets(self, request: HttpRequest, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or self.has_change_permission(request, obj):
            return fieldsets
        # View only: Django would show the groups row as their names, str(group).
        return [
            (title, {**opts, "fields": [_groups_row(name) for name in opts["fields"]]})
            for title, opts in fieldsets
        ]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context=None
    ) -> HttpResponse:
        # A read-only user field elsewhere in the admin (a submission's or a grade's student)
        # links here whatever the viewer may open; course staff who may not view users in the
        # admin get the person's staff page instead of a 403.
        if (
            not self.has_view_or_change_permission(request)
            and is_staff_member(request.user)
            and (user_id := query_id(str(object_id))) is not None
        ):
            return redirect("staffdesk:person", user_id)
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description=User._meta.get_field("groups").verbose_name)
    def group_labels(self, obj) -> str:
        return ", ".join(group_labels(obj))


def _groups_row(name: str) -> str:
    return "group_labels" if name == "groups" else name
