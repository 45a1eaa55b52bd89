"""The rules of Koi-Koi: Qt-free, no I/O."""
