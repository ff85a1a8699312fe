from django.apps import AppConfig


class StaffdeskConfig(AppConfig):
    name = "staffdesk"
    verbose_name = "Staff desk"
