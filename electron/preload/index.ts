import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_GLOBAL, EVENT_CHANNEL } from '../contract.ts';
import { buildBridge } from './bridge.ts';

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, buildBridge(ipcRenderer, EVENT_CHANNEL));
