from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import staff_views, views

app_name = "accounts"
urlpatterns = [
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(
            success_url=reverse_lazy("accounts:password_change_done")
        ),
        name="password_change",
    ),
    path(
        "password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"
    ),
    path(
        "password/reset/",
        views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("accounts:password_reset_complete")
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("staff/roster/", staff_views.roster, name="staff_roster"),
    path("staff/roster/upload/", staff_views.roster_upload, name="staff_roster_upload"),
    path("staff/roster/confirm/", staff_views.roster_confirm, name="staff_roster_confirm"),
    path("staff/roster/invite/", staff_views.roster_invite, name="staff_roster_invite"),
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.token_create, name="token_create"),
    path("profile/tokens/<int:pk>/revoke/", views.token_revoke, name="token_revoke"),
    path("profile/pseudonym/", views.pseudonym_set, name="pseudonym"),
]
