// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The D-Bus interfaces of the GATT application's objects, as BlueZ calls them
/// (doc/org.bluez.GattManager.rst). A file of their own: the message extraction reads Swift as C,
/// and a multi-line literal reads there as unterminated strings.
extension BlueZPeripheral {
    static let characteristicXML = """
        <node><interface name="org.bluez.GattCharacteristic1">
        <method name="ReadValue"><arg name="options" type="a{sv}" direction="in"/><arg name="value" type="ay" direction="out"/></method>
        <method name="WriteValue"><arg name="value" type="ay" direction="in"/><arg name="options" type="a{sv}" direction="in"/></method>
        <method name="StartNotify"/><method name="StopNotify"/><method name="Confirm"/>
        <property name="UUID" type="s" access="read"/><property name="Service" type="o" access="read"/>
        <property name="Value" type="ay" access="read"/><property name="Notifying" type="b" access="read"/>
        <property name="Flags" type="as" access="read"/>
        </interface></node>
        """
    static let descriptorXML = """
        <node><interface name="org.bluez.GattDescriptor1">
        <method name="ReadValue"><arg name="options" type="a{sv}" direction="in"/><arg name="value" type="ay" direction="out"/></method>
        <method name="WriteValue"><arg name="value" type="ay" direction="in"/><arg name="options" type="a{sv}" direction="in"/></method>
        <property name="UUID" type="s" access="read"/><property name="Characteristic" type="o" access="read"/>
        <property name="Value" type="ay" access="read"/><property name="Flags" type="as" access="read"/>
        </interface></node>
        """
    static let serviceXML = """
        <node><interface name="org.bluez.GattService1"><property name="UUID" type="s" access="read"/>
        <property name="Primary" type="b" access="read"/></interface></node>
        """
    static let managerXML = """
        <node><interface name="org.freedesktop.DBus.ObjectManager">
        <method name="GetManagedObjects"><arg name="objects" type="a{oa{sa{sv}}}" direction="out"/></method>
        <signal name="InterfacesAdded"><arg name="object" type="o"/><arg name="interfaces" type="a{sa{sv}}"/></signal>
        <signal name="InterfacesRemoved"><arg name="object" type="o"/><arg name="interfaces" type="as"/></signal>
        </interface></node>
        """
}
