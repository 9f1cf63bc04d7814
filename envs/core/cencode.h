/* Shared helpers of the compiled observation encoders (envs/<game>/_cencode.c).
 *
 * Every accessor checks what it reads and sets a Python exception naming the field on a
 * mismatch (returning -1 or NULL), so a wrong view is a clear error, never a crash.
 * Header-only: each game's extension module includes it.
 */
#ifndef PLUNDER_CENCODE_H
#define PLUNDER_CENCODE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* Acquire ``out`` as a writable C-contiguous float32 vector of exactly ``size`` values
 * and zero it. Release with PyBuffer_Release. */
static inline int ce_out(PyObject *out, Py_ssize_t size, Py_buffer *buf)
{
    if (PyObject_GetBuffer(out, buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (buf->itemsize != 4 || buf->format == NULL || strcmp(buf->format, "f") != 0
            || buf->len != size * 4) {
        PyErr_Format(PyExc_ValueError,
                     "out must be a float32 vector of %zd values (got format %s, %zd bytes)",
                     size, buf->format ? buf->format : "?", buf->len);
        PyBuffer_Release(buf);
        return -1;
    }
    memset(buf->buf, 0, (size_t)buf->len);
    return 0;
}

/* Item ``i`` of a tuple (borrowed). */
static inline PyObject *ce_item(PyObject *tuple, Py_ssize_t i, const char *name)
{
    if (!PyTuple_Check(tuple) || i >= PyTuple_GET_SIZE(tuple)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a tuple with an item %zd", name, i);
        return NULL;
    }
    return PyTuple_GET_ITEM(tuple, i);
}

/* ``obj`` as a C long (ints, bools and anything with __index__). */
static inline int ce_long(PyObject *obj, const char *name, long *v)
{
    if (PyFloat_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got a float", name);
        return -1;
    }
    *v = PyLong_AsLong(obj);
    if (*v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* Item ``i`` of a tuple as a C long. */
static inline int ce_long_at(PyObject *tuple, Py_ssize_t i, const char *name, long *v)
{
    PyObject *item = ce_item(tuple, i, name);
    return item == NULL ? -1 : ce_long(item, name, v);
}

/* ``obj`` as a tuple of ``len`` items (any length when ``len`` < 0); borrowed. */
static inline PyObject *ce_tuple(PyObject *obj, Py_ssize_t len, const char *name)
{
    if (!PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a tuple, got %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    if (len >= 0 && PyTuple_GET_SIZE(obj) != len) {
        PyErr_Format(PyExc_TypeError, "%s: expected %zd items, got %zd", name, len,
                     PyTuple_GET_SIZE(obj));
        return NULL;
    }
    return obj;
}

/* Item ``i`` of a tuple, itself a tuple of ``len`` items (any when ``len`` < 0). */
static inline PyObject *ce_tuple_at(PyObject *tuple, Py_ssize_t i, Py_ssize_t len,
                                     const char *name)
{
    PyObject *item = ce_item(tuple, i, name);
    return item == NULL ? NULL : ce_tuple(item, len, name);
}

/* The ``n`` items of a tuple of ints into ``dst`` (the tuple must hold exactly ``n``). */
static inline int ce_longs(PyObject *obj, Py_ssize_t n, const char *name, long *dst)
{
    if (ce_tuple(obj, n, name) == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < n; k++)
        if (ce_long(PyTuple_GET_ITEM(obj, k), name, &dst[k]) < 0)
            return -1;
    return 0;
}

/* A constructor table: any sequence of numbers as a newly allocated array of doubles
 * (free with PyMem_Free); its length in ``*n``. */
static inline double *ce_doubles_new(PyObject *seq, const char *name, Py_ssize_t *n)
{
    PyObject *fast = PySequence_Fast(seq, name);
    if (fast == NULL)
        return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    double *dst = PyMem_Malloc(sizeof(double) * (size_t)(*n > 0 ? *n : 1));
    if (dst == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < *n; k++) {
        dst[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, k));
        if (dst[k] == -1.0 && PyErr_Occurred()) {
            PyMem_Free(dst);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return dst;
}

/* A constructor table: any sequence of ints as a newly allocated array of longs (free
 * with PyMem_Free); its length in ``*n``. */
static inline long *ce_longs_new(PyObject *seq, const char *name, Py_ssize_t *n)
{
    PyObject *fast = PySequence_Fast(seq, name);
    if (fast == NULL)
        return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    long *dst = PyMem_Malloc(sizeof(long) * (size_t)(*n > 0 ? *n : 1));
    if (dst == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < *n; k++) {
        if (ce_long(PySequence_Fast_GET_ITEM(fast, k), name, &dst[k]) < 0) {
            PyMem_Free(dst);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return dst;
}

/* A constructor table of exactly ``n`` ints (newly allocated; PyMem_Free it), or NULL
 * with ValueError naming the table when its length differs. */
static inline long *ce_longs_exact(PyObject *seq, Py_ssize_t n, const char *name)
{
    Py_ssize_t got;
    long *t = ce_longs_new(seq, name, &got);
    if (t != NULL && got != n) {
        PyErr_Format(PyExc_ValueError, "Encoder: %s must have %zd values, got %zd", name, n,
                     got);
        PyMem_Free(t);
        return NULL;
    }
    return t;
}

/* A constructor table of exactly ``n`` numbers, as ce_longs_exact. */
static inline double *ce_doubles_exact(PyObject *seq, Py_ssize_t n, const char *name)
{
    Py_ssize_t got;
    double *t = ce_doubles_new(seq, name, &got);
    if (t != NULL && got != n) {
        PyErr_Format(PyExc_ValueError, "Encoder: %s must have %zd values, got %zd", name, n,
                     got);
        PyMem_Free(t);
        return NULL;
    }
    return t;
}

/* Module set-up: ready ``type`` and add it to ``module`` as ``name``. */
static inline int ce_add_type(PyObject *module, const char *name, PyTypeObject *type)
{
    if (PyType_Ready(type) < 0)
        return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(module, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

/* Module set-up: the ``count`` strings ``names`` as a tuple, module attribute ``attr``
 * (the field lists a module reads by position, e.g. VIEW_FIELDS, which tests compare with
 * the Python types). */
static inline int ce_add_names(PyObject *module, const char *attr, const char *const *names,
                               Py_ssize_t count)
{
    PyObject *t = PyTuple_New(count);
    if (t == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *s = PyUnicode_InternFromString(names[k]);
        if (s == NULL) {
            Py_DECREF(t);
            return -1;
        }
        PyTuple_SET_ITEM(t, k, s);
    }
    if (PyModule_AddObject(module, attr, t) < 0) {
        Py_DECREF(t);
        return -1;
    }
    return 0;
}

/* Read an int or bool of one digit (every value of a view or state) without a call, on
 * CPython 3.11 only (where that layout is known): 1 with ``*v`` set, else 0 and the caller
 * takes its checked path (big ints, __index__, other versions, errors). */
static inline int ce_small_int(PyObject *obj, long *v)
{
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
    if (PyLong_Check(obj)) {
        Py_ssize_t size = Py_SIZE(obj);
        if (size >= -1 && size <= 1) {
            *v = (long)size * (long)((PyLongObject *)obj)->ob_digit[0];
            return 1;
        }
    }
#else
    (void)obj;
    (void)v;
#endif
    return 0;
}

/* ``cls`` (the constructor argument ``what``) is a named-tuple class whose ``_fields`` are
 * ``names``, in order, and which adds nothing to a tuple's layout: so ``tp_alloc(cls, count)``
 * and PyTuple_SET_ITEM build its instances by position, as the view builders do. */
static inline int ce_check_record(PyObject *cls, const char *what, const char *const *names,
                                  Py_ssize_t count)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)
            || ((PyTypeObject *)cls)->tp_basicsize != PyTuple_Type.tp_basicsize
            || ((PyTypeObject *)cls)->tp_itemsize != PyTuple_Type.tp_itemsize) {
        PyErr_Format(PyExc_TypeError, "%s must be a named-tuple class", what);
        return -1;
    }
    PyObject *fields = PyObject_GetAttrString(cls, "_fields");
    if (fields == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be a named-tuple class (no _fields)",
                         what);
        }
        return -1;
    }
    int ok = PyTuple_Check(fields) && PyTuple_GET_SIZE(fields) == count;
    for (Py_ssize_t k = 0; ok && k < count; k++) {
        PyObject *f = PyTuple_GET_ITEM(fields, k);
        ok = PyUnicode_Check(f) && PyUnicode_CompareWithASCIIString(f, names[k]) == 0;
    }
    Py_DECREF(fields);
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s._fields differ from the %zd fields the C code "
                     "fills", what, count);
    return ok ? 0 : -1;
}

/* Module set-up: create ``def``'s module with the type ``type`` under ``type_name`` and the
 * ``count`` name tuples of ``attrs`` (attribute name, names, number of names). */
typedef struct { const char *attr; const char *const *names; Py_ssize_t count; } ce_names;

static inline PyObject *ce_module_named(PyModuleDef *def, const char *type_name,
                                        PyTypeObject *type, const ce_names *attrs,
                                        int count)
{
    PyObject *m = PyModule_Create(def);
    if (m == NULL)
        return NULL;
    if (ce_add_type(m, type_name, type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    for (int k = 0; k < count; k++) {
        if (ce_add_names(m, attrs[k].attr, attrs[k].names, attrs[k].count) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}

/* An encoder module: ``ce_module_named`` with the type ``Encoder``. */
static inline PyObject *ce_module(PyModuleDef *def, PyTypeObject *encoder,
                                  const ce_names *attrs, int count)
{
    return ce_module_named(def, "Encoder", encoder, attrs, count);
}

#endif
