#define PY_SSIZE_T_CLEAN
#include <Python.h>

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cencode", "skeleton", -1, NULL,
};

PyMODINIT_FUNC PyInit__cencode(void) { return PyModule_Create(&module); }
