/* SPDX-License-Identifier: GPL-2.0 */
#ifndef IDLETOP_VERSION_H
#define IDLETOP_VERSION_H
#define IDLETOP_VERSION "0.1"
#endif
