/* SPDX-License-Identifier: MIT */
/*
 * chat_client.h - the chat client's header under its older name: the
 * declarations are in <contractc/client.h> (client/include/contractc/client.h),
 * which is what is installed.
 */
#ifndef CONTRACTC_CHAT_CLIENT_H_FORWARD
#define CONTRACTC_CHAT_CLIENT_H_FORWARD
#include <contractc/client.h>
#endif
