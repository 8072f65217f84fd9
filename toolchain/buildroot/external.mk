include $(sort $(wildcard $(BR2_EXTERNAL_EXMAP_MINI_PATH)/package/*/*.mk))
