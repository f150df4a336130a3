from setuptools import setup

setup(
	name='SpeakQL',
	packages=['SpeakQL']
	)