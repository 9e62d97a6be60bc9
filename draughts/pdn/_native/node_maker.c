/* draughts.pdn._native._c.NodeMaker: the PDN reader's game-tree nodes,
 * made in C.
 *
 * NodeMaker(cls, parent, move, children, defaults) makes a callable that,
 * called as maker(parent_node, move), does what
 *
 *     node = cls.__new__(cls)
 *     node.<parent> = parent_node; node.<move> = move; node.<children> = []
 *     for name, value in defaults.items(): setattr(node, name, value)
 *     parent_node.<children>.append(node)
 *
 * does, for draughts.pdn.tree.ChildNode, whose __init__ sets nothing but
 * those slots (draughts.pdn.tree says which, and the tests check that both
 * make the same node). Each slot is set through its own descriptor, as
 * object.__setattr__ would set it, without looking the name up each time.
 * The reader makes one node for every move it reads: made here, a node
 * costs about two thirds of ChildNode(...) and the append in Python (0.13
 * against 0.2 us), which took a replay of the International corpus from
 * about 130 to 125 us a game. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall; /* maker_vectorcall: calls skip the argument tuple */
    PyTypeObject *type;
    PyObject *parent, *move, *children; /* the descriptors of those slots */
    PyObject *names, *values;           /* tuples: the descriptors of the other slots, their values */
    /* Where each slot lives in a node (parent, move, children, then the
     * others), when every one is a plain __slots__ member: then a node's
     * slots are written in place, as the member descriptors would write
     * them, without their calls and type checks: read_game on the
     * International corpus ran 5% fewer instructions (1.03 M against
     * 0.97 M a game, callgrind). NULL where one is another descriptor. */
    Py_ssize_t *offsets;
} MakerObject;

static PyObject *empty_tuple;

static PyObject *maker_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames);

/* The data descriptor of `name` on `cls` (a slot), or NULL with TypeError. */
static PyObject *slot_of(PyTypeObject *cls, PyObject *name) {
    PyObject *descriptor = PyObject_GetAttr((PyObject *)cls, name);
    if (descriptor == NULL) return NULL;
    PyTypeObject *kind = Py_TYPE(descriptor);
    if (kind->tp_descr_get == NULL || kind->tp_descr_set == NULL) {
        PyErr_Format(PyExc_TypeError, "NodeMaker: %R.%U is not a slot", cls, name);
        Py_DECREF(descriptor);
        return NULL;
    }
    return descriptor;
}

static int set_slot(PyObject *descriptor, PyObject *node, PyObject *value) {
    return Py_TYPE(descriptor)->tp_descr_set(descriptor, node, value);
}

/* Where a slot's value lives in an instance, for a descriptor that is a
 * plain writable __slots__ member; -1 for any other descriptor. */
static Py_ssize_t slot_offset(PyObject *descriptor) {
    if (!Py_IS_TYPE(descriptor, &PyMemberDescr_Type)) return -1;
    PyMemberDef *member = ((PyMemberDescrObject *)descriptor)->d_member;
    return member->type == T_OBJECT_EX && !(member->flags & READONLY) ? member->offset : -1;
}

/* The offsets of the maker's slots, or NULL (no error) where one is not a
 * plain member. */
static Py_ssize_t *slot_offsets(MakerObject *self) {
    Py_ssize_t n = PyTuple_GET_SIZE(self->names);
    Py_ssize_t *offsets = PyMem_Malloc((size_t)(n + 3) * sizeof(Py_ssize_t));
    if (offsets == NULL) return NULL;
    offsets[0] = slot_offset(self->parent);
    offsets[1] = slot_offset(self->move);
    offsets[2] = slot_offset(self->children);
    for (Py_ssize_t i = 0; i < n; i++) offsets[3 + i] = slot_offset(PyTuple_GET_ITEM(self->names, i));
    for (Py_ssize_t i = 0; i < n + 3; i++)
        if (offsets[i] < 0) {
            PyMem_Free(offsets);
            return NULL;
        }
    return offsets;
}

static PyObject **slot_at(PyObject *node, Py_ssize_t offset) {
    return (PyObject **)(void *)((char *)node + offset);
}

/* The node's slots set in place (see MakerObject.offsets). */
static void set_slots(MakerObject *self, PyObject *node, PyObject *parent, PyObject *move,
                      PyObject *children) {
    const Py_ssize_t *offsets = self->offsets;
    Py_XSETREF(*slot_at(node, offsets[0]), Py_NewRef(parent));
    Py_XSETREF(*slot_at(node, offsets[1]), Py_NewRef(move));
    Py_XSETREF(*slot_at(node, offsets[2]), Py_NewRef(children));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->values); i++)
        Py_XSETREF(*slot_at(node, offsets[3 + i]), Py_NewRef(PyTuple_GET_ITEM(self->values, i)));
}

/* The parent's children (a new reference), read as the descriptor would. */
static PyObject *children_of(MakerObject *self, PyObject *parent) {
    if (self->offsets == NULL)
        return Py_TYPE(self->children)
            ->tp_descr_get(self->children, parent, (PyObject *)Py_TYPE(parent));
    PyTypeObject *owner = ((PyDescrObject *)self->children)->d_type;
    if (!PyObject_TypeCheck(parent, owner)) {
        PyErr_Format(PyExc_TypeError, "a node's parent must be a %.100s, not %.100s",
                     owner->tp_name, Py_TYPE(parent)->tp_name);
        return NULL;
    }
    PyObject *children = *slot_at(parent, self->offsets[2]);
    if (children == NULL) {
        PyErr_SetObject(PyExc_AttributeError, ((PyDescrObject *)self->children)->d_name);
        return NULL;
    }
    return Py_NewRef(children);
}

static PyObject *maker_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyTypeObject *cls;
    PyObject *parent, *move, *children, *defaults;
    static char *keywords[] = {"cls", "parent", "move", "children", "defaults", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!UUUO!:NodeMaker", keywords, &PyType_Type,
                                     &cls, &parent, &move, &children, &PyDict_Type, &defaults))
        return NULL;
    if (cls->tp_new == NULL) {
        PyErr_Format(PyExc_TypeError, "NodeMaker: %R cannot be instantiated", cls);
        return NULL;
    }
    MakerObject *self = (MakerObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->vectorcall = maker_vectorcall;
    self->type = (PyTypeObject *)Py_NewRef(cls);
    Py_ssize_t n = PyDict_GET_SIZE(defaults);
    self->names = PyTuple_New(n);
    self->values = PyTuple_New(n);
    if (self->names == NULL || self->values == NULL ||
        (self->parent = slot_of(cls, parent)) == NULL ||
        (self->move = slot_of(cls, move)) == NULL ||
        (self->children = slot_of(cls, children)) == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    PyObject *name, *value;
    Py_ssize_t position = 0, i = 0;
    while (PyDict_Next(defaults, &position, &name, &value)) {
        PyObject *descriptor = PyUnicode_Check(name) ? slot_of(cls, name) : NULL;
        if (descriptor == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "NodeMaker: a slot name is a str");
            Py_DECREF(self);
            return NULL;
        }
        PyTuple_SET_ITEM(self->names, i, descriptor);
        PyTuple_SET_ITEM(self->values, i, Py_NewRef(value));
        i++;
    }
    self->offsets = slot_offsets(self);
    return (PyObject *)self;
}

/* maker(parent, move): the new node, appended to the parent's children. */
static PyObject *maker_call(MakerObject *self, PyObject *const *args, size_t nargsf,
                            PyObject *kwnames) {
    if (PyVectorcall_NARGS(nargsf) != 2 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "a NodeMaker takes a parent node and a move");
        return NULL;
    }
    PyObject *parent = args[0], *move = args[1];
    PyObject *siblings = children_of(self, parent);
    if (siblings == NULL) return NULL;
    if (!PyList_Check(siblings)) {
        PyErr_Format(PyExc_TypeError, "the parent's children must be a list, not %.100s",
                     Py_TYPE(siblings)->tp_name);
        Py_DECREF(siblings);
        return NULL;
    }
    PyObject *node = self->type->tp_new(self->type, empty_tuple, NULL);
    PyObject *children = node ? PyList_New(0) : NULL;
    int failed = children == NULL;
    if (!failed && self->offsets != NULL) {
        set_slots(self, node, parent, move, children);
    } else if (!failed) {
        failed = set_slot(self->parent, node, parent) < 0 ||
                 set_slot(self->move, node, move) < 0 ||
                 set_slot(self->children, node, children) < 0;
        for (Py_ssize_t i = 0; !failed && i < PyTuple_GET_SIZE(self->names); i++)
            failed = set_slot(PyTuple_GET_ITEM(self->names, i), node,
                              PyTuple_GET_ITEM(self->values, i)) < 0;
    }
    if (!failed) failed = PyList_Append(siblings, node) < 0;
    Py_XDECREF(children);
    Py_DECREF(siblings);
    if (failed) {
        Py_XDECREF(node);
        return NULL;
    }
    return node;
}

/* The parent's children slot set to `children` (a new list), as the
 * descriptor would set it: 0, or -1 with an exception. */
static int set_children(MakerObject *self, PyObject *parent, PyObject *children) {
    if (self->offsets == NULL) return set_slot(self->children, parent, children);
    Py_XSETREF(*slot_at(parent, self->offsets[2]), Py_NewRef(children));
    return 0;
}

/* maker.grow(parent, moves): where the parent's children slot holds the
 * tuple `moves` itself (a line the reader left as moves, see
 * draughts.pdn.tree.GameNode.variations), a new list of children in its
 * place, holding the first of a line of nodes, one a move, each the child
 * of the one before: the list is returned. Where the slot holds anything
 * else (the line was made meanwhile), that is returned. Nothing here runs
 * Python code (the cyclic collector is off while the nodes are made, which
 * also spares a collection set off in the middle walking them, all alive),
 * so that another thread sees the moves or the whole line, and a line is
 * made once. */
static PyObject *maker_grow(MakerObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "grow() takes a parent node and a tuple of moves");
        return NULL;
    }
    PyObject *parent = args[0], *moves = args[1];
    PyObject *current = children_of(self, parent);
    if (current == NULL || current != moves) return current;
    Py_DECREF(current);
    int collecting = PyGC_Disable();
    PyObject *children = PyList_New(0);
    if (children != NULL && set_children(self, parent, children) < 0) Py_CLEAR(children);
    PyObject *node = children == NULL ? NULL : Py_NewRef(parent);
    for (Py_ssize_t i = 0; node != NULL && i < PyTuple_GET_SIZE(moves); i++) {
        PyObject *call_args[] = {node, PyTuple_GET_ITEM(moves, i)};
        Py_SETREF(node, maker_call(self, call_args, 2, NULL));
    }
    if (collecting) PyGC_Enable();
    if (node == NULL) {
        Py_XDECREF(children);
        return NULL;
    }
    Py_DECREF(node);
    return children;
}

static PyMethodDef maker_methods[] = {
    {"grow", (PyCFunction)(void (*)(void))maker_grow, METH_FASTCALL,
     "grow($self, parent, moves, /)\n--\n\n"
     "The parent's children made from the tuple of moves its slot holds."},
    {NULL, NULL, 0, NULL},
};

static int maker_traverse(MakerObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->type);
    Py_VISIT(self->parent);
    Py_VISIT(self->move);
    Py_VISIT(self->children);
    Py_VISIT(self->names);
    Py_VISIT(self->values);
    return 0;
}

static int maker_clear(MakerObject *self) {
    Py_CLEAR(self->type);
    Py_CLEAR(self->parent);
    Py_CLEAR(self->move);
    Py_CLEAR(self->children);
    Py_CLEAR(self->names);
    Py_CLEAR(self->values);
    return 0;
}

static void maker_dealloc(MakerObject *self) {
    PyObject_GC_UnTrack(self);
    maker_clear(self);
    PyMem_Free(self->offsets);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *maker_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames) {
    return maker_call((MakerObject *)self, args, nargsf, kwnames);
}

static PyObject *vectorcall_tp_call(PyObject *self, PyObject *args, PyObject *kwargs) {
    return PyVectorcall_Call(self, args, kwargs);
}

PyTypeObject MakerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "draughts.pdn._native._c.NodeMaker",
    .tp_basicsize = sizeof(MakerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "NodeMaker(cls, parent, move, children, defaults): makes game-tree nodes.",
    .tp_new = maker_new,
    .tp_call = vectorcall_tp_call,
    .tp_vectorcall_offset = offsetof(MakerObject, vectorcall),
    .tp_methods = maker_methods,
    .tp_traverse = (traverseproc)maker_traverse,
    .tp_clear = (inquiry)maker_clear,
    .tp_dealloc = (destructor)maker_dealloc,
};

int node_maker_init(void) {
    empty_tuple = PyTuple_New(0);
    return empty_tuple == NULL ? -1 : PyType_Ready(&MakerType);
}
