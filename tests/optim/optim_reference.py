"""NumPy implementations of the update rules (PyTorch's documented algorithms), one parameter at a time."""

import numpy as np


class SGD:
    def __init__(self, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, maximize=False):
        self.lr, self.mu, self.tau, self.wd, self.nesterov = lr, momentum, dampening, weight_decay, nesterov
        self.buf, self.t, self.sign = None, 0, -1 if maximize else 1

    def step(self, p, g):
        lr = self.lr(self.t) if callable(self.lr) else self.lr
        g = self.sign * g + self.wd * p
        if self.mu:
            self.buf = g.copy() if self.buf is None else self.mu * self.buf + (1 - self.tau) * g
            g = g + self.mu * self.buf if self.nesterov else self.buf
        self.t += 1
        return p - lr * g


class Adam:
    def __init__(self, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, decoupled=False, amsgrad=False,
                 maximize=False):
        self.lr, (self.b1, self.b2), self.eps, self.wd, self.decoupled = lr, betas, eps, weight_decay, decoupled
        self.amsgrad, self.sign = amsgrad, -1 if maximize else 1
        self.m = self.v = self.vmax = None
        self.t = 0

    def step(self, p, g):
        lr = self.lr(self.t) if callable(self.lr) else self.lr
        self.t += 1
        g = self.sign * g
        if self.decoupled:
            p = p * (1 - lr * self.wd)
        else:
            g = g + self.wd * p
        if self.m is None:
            self.m, self.v = np.zeros_like(p), np.zeros_like(p)
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.v = self.b2 * self.v + (1 - self.b2) * g * g
        if self.amsgrad:  # the running maximum of the second moment replaces it in the denominator
            self.vmax = self.v if self.vmax is None else np.maximum(self.vmax, self.v)
        v = self.vmax if self.amsgrad else self.v
        mhat, vhat = self.m / (1 - self.b1 ** self.t), v / (1 - self.b2 ** self.t)
        return p - lr * mhat / (np.sqrt(vhat) + self.eps)
